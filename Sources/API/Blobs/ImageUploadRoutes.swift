import Blobs
import HTTPTypes
import Hummingbird

/// The routes whose bodies are images streamed to the blob store (`POST /v1/blobs`,
/// `PUT /v1/me/avatar`). The edge middlewares that collect a JSON body into memory
/// (`BodyLimitMiddleware`, `EmptyBodyMiddleware`, `RequestDigestMiddleware`) let these through
/// uncollected: an image may be ten times the JSON limit, and the upload refuses it at the chunk
/// that passes `BlobLimits.imageBytesMax`, so the server never holds more than a chunk of it.
enum ImageUploadRoutes {
    /// Whether `request` is one of the image uploads.
    static func isUpload(_ request: Request) -> Bool {
        switch request.method {
        case .post: request.uri.path == "/v1/blobs"
        case .put: request.uri.path == "/v1/me/avatar"
        default: false
        }
    }

    /// 413 `payload_too_large`: the image passed `BlobLimits.imageBytesMax` (declared or sent).
    static var tooLarge: Problem {
        Problem(status: .contentTooLarge, code: "payload_too_large", title: "Image too large",
                detail: "an image may hold at most \(BlobLimits.imageBytesMax) bytes")
    }
}
