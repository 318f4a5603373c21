import Blobs

/// A blob as the store holds it: its content address, sniffed type and size.
public struct StoredBlob: Sendable, Equatable {
    /// The lowercase hex SHA-256 of the bytes.
    public var blobId: String
    /// The sniffed type.
    public var type: ImageType
    /// The size.
    public var bytes: Int

    /// A blob of `bytes` bytes of `type` at `blobId`.
    public init(blobId: String, type: ImageType, bytes: Int) {
        self.blobId = blobId
        self.type = type
        self.bytes = bytes
    }
}
