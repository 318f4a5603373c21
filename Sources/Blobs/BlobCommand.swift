/// What the API asks of the blobs domain once the store holds the bytes. The uploader is
/// `CommandMetadata.actor`; the time is the metadata's.
public enum BlobCommand: Sendable, Equatable {
    /// Records that the actor stored `bytes` bytes of `type` under `blobId` (its SHA-256).
    case recordUpload(blobId: String, type: ImageType, bytes: Int)
}
