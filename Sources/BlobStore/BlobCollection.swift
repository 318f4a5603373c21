/// What a collection freed.
public struct BlobCollection: Sendable, Equatable {
    /// The ids of the blobs deleted, sorted.
    public var deleted: [String]
    /// Their bytes, together.
    public var bytesFreed: Int
    /// Stale temporary files removed (uploads a crash or a dropped connection left behind).
    public var temporaryFilesRemoved: Int

    /// A collection that freed `deleted` (`bytesFreed` bytes) and `temporaryFilesRemoved` files.
    public init(deleted: [String] = [], bytesFreed: Int = 0, temporaryFilesRemoved: Int = 0) {
        self.deleted = deleted
        self.bytesFreed = bytesFreed
        self.temporaryFilesRemoved = temporaryFilesRemoved
    }
}
