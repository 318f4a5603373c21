import BlobStore
import Blobs
import EventSourcing

extension Problem {
    /// A store refusal as the client sees it: 413, 415, 422; the disk failing is the service's
    /// fault (500, logged by `ProblemMiddleware` from the error thrown alongside).
    static func blobStore(_ error: BlobStoreError) -> Problem {
        switch error {
        case .tooLarge:
            ImageUploadRoutes.tooLarge
        case .unsupportedMediaType:
            Problem(status: .unsupportedMediaType, code: "unsupported_media_type", title: "Unsupported media type",
                    detail: "the bytes are not a PNG, JPEG, WebP or HEIC image")
        case .empty:
            ProblemMapping.problem(for: BlobError.validationFailed([FieldError("body", "An image needs at least one byte.")]))
        case .io:
            .internalError
        }
    }

    /// 404 `blob_not_found`: no such image, or one the caller may not see; the same answer
    /// either way, so an id reveals nothing of an image one cannot see.
    static let blobNotFound = Problem(status: .notFound, code: "blob_not_found", title: "Not found",
                                      detail: "there is no such image, or you may not see it")
}

