import Blobs
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BlobStore {
    /// When blob `blobId`'s file was last written or kept (`keep`); nil when the store holds none.
    /// An erasure reads it before its event, to tell a use of the same bytes begun meanwhile.
    public func lastTouched(_ blobId: String) throws(BlobStoreError) -> Date? {
        guard BlobLimits.isBlobId(blobId) else { return nil }
        return try POSIXFiles.status(path(of: blobId))?.modified
    }

    /// Deletes blob `blobId`'s file now, without a grace period, unless it was written or kept
    /// since `touched` (another upload of the same bytes, or a command about to reference them:
    /// the collector decides about those after the grace period). Checked under the store's
    /// lock, as `collect` does. True when the file is gone (or was already).
    public func deleteErased(_ blobId: String, untouchedSince touched: Date) throws(BlobStoreError) -> Bool {
        guard BlobLimits.isBlobId(blobId) else { return false }
        let file = path(of: blobId)
        let deleted = try POSIXFiles.withLock(lockFile, exclusive: true) { () throws(BlobStoreError) -> Bool in
            guard let status = try POSIXFiles.status(file) else { return true }
            guard status.isFile, status.modified <= touched else { return false }
            if unlink(file) != 0, errno != ENOENT { throw POSIXFiles.failure("unlink") }
            return true
        }
        if deleted, syncs { try POSIXFiles.syncDirectory(shardDirectory(of: blobId)) }
        return deleted
    }
}
