import HTTPTypes
import Hummingbird

/// Sends `ETag` and `Location` as the handlers meant them. The generated code writes every
/// header of a response in URI style, percent-encoding it: the image routes' `"<blobId>"` went
/// out as `%22<blobId>%22` and `/v1/blobs/<id>` as `%2Fv1%2Fblobs%2F<id>`, which no client
/// compares or follows. Neither value is ever meant percent-encoded: an ETag is an opaque
/// quoted string, and a Location the server makes is a plain path.
struct ResponseHeaderEncodingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for name in [HTTPField.Name.eTag, .location] {
            if let value = response.headers[name], value.contains("%"), let decoded = value.removingPercentEncoding {
                response.headers[name] = decoded
            }
        }
        return response
    }
}
