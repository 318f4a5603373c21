import Blobs
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BlobStore {
    /// The blob `blobId` and its bytes, or nil when the store has none (or `blobId` is not a
    /// blob id). The type is sniffed again from the file: a file that is no image, which the
    /// store never writes, reads as absent rather than being served under a guessed type.
    public func read(_ blobId: String) throws(BlobStoreError) -> (blob: StoredBlob, data: Data)? {
        guard BlobLimits.isBlobId(blobId) else { return nil }
        let descriptor = open(path(of: blobId), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw POSIXFiles.failure("open")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXFiles.failure("fstat") }
        let size = Int(info.st_size)
        guard size <= BlobLimits.imageBytesMax else { return nil }
        let data = try POSIXFiles.readAll(descriptor, count: size)
        let type = data.withUnsafeBytes { ImageType.sniff($0) }
        guard let type, data.count == size else { return nil }
        return (StoredBlob(blobId: blobId, type: type, bytes: size), data)
    }
}
