/// Why the blob store refused or failed. Mapped to HTTP at the edge: `tooLarge` 413
/// `payload_too_large`, `unsupportedMediaType` 415 `unsupported_media_type`, `empty` 422
/// `validation_failed`; `io` is the disk failing (500 after logging, never the client's fault).
public enum BlobStoreError: Error, Sendable, Equatable {
    /// More than `BlobLimits.imageBytesMax` bytes arrived; the upload stopped there.
    case tooLarge(limitBytes: Int)
    /// The bytes are not one of `ImageType`'s formats (or too short to tell).
    case unsupportedMediaType
    /// No bytes at all.
    case empty
    /// A file operation failed; `operation` says which, `errno` why.
    case io(operation: String, errno: Int32)
}
