import Blobs
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BlobStore {
    /// Deletes every blob not in `referenced` whose file was last written before `cutoff`, and
    /// every temporary file older than `cutoff`. The cutoff is the grace period: a blob just
    /// uploaded is not referenced yet, and an upload of the same bytes again refreshes the
    /// file's time. Each deletion re-checks the time under the store's lock, so an upload
    /// placing the same blob meanwhile is never lost.
    public func collect(keeping referenced: Set<String>, olderThan cutoff: Date) throws(BlobStoreError) -> BlobCollection {
        try sweep(keeping: referenced, olderThan: cutoff, deleting: true)
    }

    /// What `collect` would delete now, deleting nothing (`logbook-admin blobs gc --dry-run`).
    public func collectable(keeping referenced: Set<String>, olderThan cutoff: Date) throws(BlobStoreError) -> BlobCollection {
        try sweep(keeping: referenced, olderThan: cutoff, deleting: false)
    }

    private func sweep(keeping referenced: Set<String>, olderThan cutoff: Date, deleting: Bool) throws(BlobStoreError) -> BlobCollection {
        var collection = BlobCollection()
        for shard in try POSIXFiles.names(in: directory).sorted() where Self.isShardName(shard) {
            for blobId in try POSIXFiles.names(in: directory + "/" + shard).sorted()
            where BlobLimits.isBlobId(blobId) && blobId.hasPrefix(shard) && !referenced.contains(blobId) {
                let file = path(of: blobId)
                let freed = try POSIXFiles.withLock(lockFile, exclusive: true) { () throws(BlobStoreError) -> Int? in
                    guard let status = try POSIXFiles.status(file), status.isFile, status.modified < cutoff else { return nil }
                    if deleting, unlink(file) != 0, errno != ENOENT { throw POSIXFiles.failure("unlink") }
                    return status.bytes
                }
                guard let freed else { continue }
                collection.deleted.append(blobId)
                collection.bytesFreed += freed
            }
        }
        for name in try POSIXFiles.names(in: temporaryDirectory) {
            let file = temporaryDirectory + "/" + name
            guard let status = try POSIXFiles.status(file), status.isFile, status.modified < cutoff else { continue }
            if deleting, unlink(file) != 0, errno != ENOENT { throw POSIXFiles.failure("unlink") }
            collection.temporaryFilesRemoved += 1
        }
        return collection
    }

    /// Two lowercase hex digits: the name of a directory of blobs (not `tmp`, not the lock).
    private static func isShardName(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
