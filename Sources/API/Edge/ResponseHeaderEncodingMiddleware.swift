import HTTPTypes
import Hummingbird

/// Sends `ETag`, `Location` and `Content-Security-Policy` as the handlers meant them. The generated code writes every
/// header of a response in URI style, percent-encoding it: the image routes' `"<blobId>"` went
/// out as `%22<blobId>%22` and `/v1/blobs/<id>` as `%2Fv1%2Fblobs%2F<id>`, which no client
/// compares or follows, and the console's policy as `default-src%20%27none%27…`, which no browser
/// reads. None is ever meant percent-encoded: an ETag is an opaque quoted string, a Location the
/// server makes is a plain path, and the policy is the console's constant.
struct ResponseHeaderEncodingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for name in [HTTPField.Name.eTag, .location, .contentSecurityPolicy] {
            if let value = response.headers[name], value.contains("%"), let decoded = value.removingPercentEncoding {
                response.headers[name] = decoded
            }
        }
        return response
    }
}
