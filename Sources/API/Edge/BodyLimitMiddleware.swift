import Blobs
import Hummingbird
import NIOCore

/// Refuses bodies over `bytesMax` with 413 before any route reads them. The declared length is
/// checked first; a body without one is collected up to the limit, so a client cannot stream
/// an endless body into memory. An image upload (`ImageUploadRoutes`) is not collected: its
/// route streams it to disk under its own limit, `BlobLimits.imageBytesMax`, refused here
/// already when the declared length is over it.
///
/// A body that cannot be read (`Problem.malformedBody`: a broken chunk, a body that ends before
/// its framing says) is the client's fault: 400, never the generic 500.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let bytesMax: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if ImageUploadRoutes.isUpload(request) {
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > BlobLimits.imageBytesMax {
                throw ImageUploadRoutes.tooLarge
            }
            return try await next(request, context)
        }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > bytesMax {
            throw Problem.bodyTooLarge(bytesMax: bytesMax)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: bytesMax)
        } catch is NIOTooManyBytesError {
            throw Problem.bodyTooLarge(bytesMax: bytesMax)
        } catch {
            throw Problem.malformedBody(error)
        }
        return try await next(request, context)
    }
}
