import Blobs
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One upload in progress: bytes are hashed and written to a temporary file as they arrive,
/// so the server holds no more than a chunk of an upload in memory and refuses an oversized or
/// non-image body at the chunk that shows it. Used by one task; the temporary file is removed
/// on every failure, on `abandon`, and on deinit when neither `finish` nor `abandon` ran.
public final class BlobUpload {
    private let store: BlobStore
    /// `<dir>/tmp/<uuid>`.
    let temporaryPath: String
    private var descriptor: Int32
    private var hasher = SHA256()
    /// Bytes appended so far.
    public private(set) var bytes = 0
    /// The first bytes, until there are enough to sniff.
    private var head: [UInt8] = []
    /// The sniffed type, once `ImageType.sniffBytes` arrived.
    private var type: ImageType?

    /// A new temporary file in `store`'s `tmp/`.
    init(store: BlobStore) throws(BlobStoreError) {
        self.store = store
        temporaryPath = store.temporaryDirectory + "/" + UUID().uuidString.lowercased()
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFiles.failure("open temporary") }
    }

    deinit { abandon() }

    /// Hashes and writes `chunk`. Refuses with `tooLarge` once the total passes
    /// `BlobLimits.imageBytesMax`, and with `unsupportedMediaType` as soon as the first
    /// `ImageType.sniffBytes` bytes are no image; either way the upload is abandoned.
    public func append(_ chunk: UnsafeRawBufferPointer) throws(BlobStoreError) {
        precondition(descriptor >= 0, "append after finish or abandon")
        guard chunk.count <= BlobLimits.imageBytesMax - bytes else {
            abandon()
            throw .tooLarge(limitBytes: BlobLimits.imageBytesMax)
        }
        if type == nil {
            head.append(contentsOf: chunk.prefix(ImageType.sniffBytes - head.count))
            if head.count == ImageType.sniffBytes {
                type = try sniffHead()
            }
        }
        hasher.update(bufferPointer: chunk)
        do { try POSIXFiles.writeAll(descriptor, chunk) } catch {
            abandon()
            throw error
        }
        bytes += chunk.count
    }

    /// `append` of a chunk as HTTP bodies yield them. (The closure does not throw: a typed
    /// throw through `withUnsafeBytes`, which rethrows untyped, crashes the 6.3 compiler.)
    public func append(_ chunk: ArraySlice<UInt8>) throws(BlobStoreError) {
        var failure: BlobStoreError?
        chunk.withUnsafeBytes { bytes in
            do throws(BlobStoreError) { try append(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Makes the upload a blob: fsyncs the file and renames it to its content address, then
    /// fsyncs the directory. When the store already has the id (same bytes), the new file is
    /// dropped and the old one's time refreshed, so collection gives it a new grace period.
    /// Refuses an empty upload (`empty`) and one too short to be an image.
    public func finish() throws(BlobStoreError) -> StoredBlob {
        precondition(descriptor >= 0, "finish after finish or abandon")
        guard bytes > 0 else {
            abandon()
            throw .empty
        }
        let type: ImageType
        if let sniffed = self.type { type = sniffed } else { type = try sniffHead() }
        let blobId = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        let synced = !store.syncs || fsync(descriptor) == 0
        close(descriptor)
        descriptor = -1
        guard synced else {
            let failure = POSIXFiles.failure("fsync")
            unlink(temporaryPath)
            throw failure
        }
        do { try place(blobId) } catch {
            unlink(temporaryPath)
            throw error
        }
        return StoredBlob(blobId: blobId, type: type, bytes: bytes)
    }

    /// Removes the temporary file; nothing when the upload already finished or was abandoned.
    public func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporaryPath)
    }

    /// The sniffed type of the head, or the upload abandoned and `unsupportedMediaType`.
    private func sniffHead() throws(BlobStoreError) -> ImageType {
        if let type = head.withUnsafeBytes({ ImageType.sniff($0) }) { return type }
        abandon()
        throw .unsupportedMediaType
    }

    /// Renames the synced temporary file to `blobId`'s address, holding the store's lock shared
    /// so that a collection never deletes the address between the check and the rename.
    private func place(_ blobId: String) throws(BlobStoreError) {
        let shard = store.shardDirectory(of: blobId)
        let target = store.path(of: blobId)
        try POSIXFiles.withLock(store.lockFile, exclusive: false) { () throws(BlobStoreError) in
            if try POSIXFiles.makeDirectory(shard), store.syncs {
                try POSIXFiles.syncDirectory(store.directory)
            }
            if access(target, F_OK) == 0 {
                guard utimensat(AT_FDCWD, target, nil, 0) == 0 else { throw POSIXFiles.failure("utimensat") }
                unlink(temporaryPath)
                return
            }
            guard rename(temporaryPath, target) == 0 else { throw POSIXFiles.failure("rename") }
            if store.syncs { try POSIXFiles.syncDirectory(shard) }
        }
    }
}
