import Blobs
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Image files beside the log (`<dataDir>/blobs/`), content-addressed: a blob lives at
/// `<dir>/<first two hex digits>/<id>`, where the id is the SHA-256 of its bytes. An upload is
/// written to `<dir>/tmp/<uuid>`, fsync'd, then renamed to its address and the directory
/// fsync'd, so an acknowledged upload survives a crash and a crash never leaves a partial file
/// under a real id. Safe to share between tasks and beside another process on the same
/// directory (`logbook-admin blobs gc` beside a running server).
public final class BlobStore: Sendable {
    /// The directory's name in the data directory.
    public static let directoryName = "blobs"
    /// Where uploads in progress are written, inside the store's directory.
    static let temporaryDirectoryName = "tmp"
    /// The lock file that orders placing a blob against collecting it.
    static let lockFileName = "collect.lock"

    /// The store's directory.
    public let directory: String
    /// Whether writes are fsync'd; off only in tests that do not test durability.
    let syncs: Bool

    /// The store in `directory` (`<dataDir>/blobs`), created with its `tmp/` when missing.
    /// `syncs: false` skips every fsync: acknowledged uploads could be lost on power failure.
    public init(directory: String, syncs: Bool = true) throws(BlobStoreError) {
        self.directory = directory
        self.syncs = syncs
        let parent = (directory as NSString).deletingLastPathComponent
        if try POSIXFiles.makeDirectory(directory), syncs {
            try POSIXFiles.syncDirectory(parent.isEmpty ? "." : parent)
        }
        if try POSIXFiles.makeDirectory(temporaryDirectory), syncs {
            try POSIXFiles.syncDirectory(directory)
        }
    }

    /// Starts writing an upload to a new temporary file.
    public func beginUpload() throws(BlobStoreError) -> BlobUpload {
        try BlobUpload(store: self)
    }

    /// Whether the store holds the blob `blobId`; false for anything that is not a blob id.
    public func exists(_ blobId: String) -> Bool {
        guard BlobLimits.isBlobId(blobId) else { return false }
        return access(path(of: blobId), F_OK) == 0
    }

    /// Whether the store holds `blobId`, and if so a fresh grace period for it: its file's time
    /// set to now, under the store's lock. Called before an entity starts referencing the blob,
    /// so that a collection which read the references before that entity existed cannot delete
    /// the file meanwhile (each deletion re-checks the time under the same lock).
    public func keep(_ blobId: String) throws(BlobStoreError) -> Bool {
        guard BlobLimits.isBlobId(blobId) else { return false }
        let file = path(of: blobId)
        return try POSIXFiles.withLock(lockFile, exclusive: false) { () throws(BlobStoreError) -> Bool in
            if utimensat(AT_FDCWD, file, nil, 0) == 0 { return true }
            if errno == ENOENT { return false }
            throw POSIXFiles.failure("utimensat")
        }
    }

    /// `<dir>/tmp`.
    var temporaryDirectory: String { directory + "/" + Self.temporaryDirectoryName }
    /// `<dir>/collect.lock`.
    var lockFile: String { directory + "/" + Self.lockFileName }

    /// `<dir>/<first two hex digits>`, the directory of `blobId`.
    func shardDirectory(of blobId: String) -> String {
        directory + "/" + blobId.prefix(2)
    }

    /// `<dir>/<first two hex digits>/<id>`, the file of `blobId`.
    func path(of blobId: String) -> String {
        assert(BlobLimits.isBlobId(blobId), "only a checked blob id names a file")
        return shardDirectory(of: blobId) + "/" + blobId
    }
}
