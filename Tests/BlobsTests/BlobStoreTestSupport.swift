import BlobStore
import Crypto
import Foundation

/// A blob store in a fresh temporary directory, removed by `remove()`.
struct TemporaryBlobStore {
    let root: URL
    let store: BlobStore

    init(syncs: Bool = true) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("blobs-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        store = try BlobStore(directory: root.appendingPathComponent("blobs").path, syncs: syncs)
    }

    /// `bytes` uploaded in chunks of `chunkBytes`.
    func put(_ bytes: [UInt8], chunkBytes: Int = 64 * 1024) throws -> StoredBlob {
        let upload = try store.beginUpload()
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkBytes, bytes.count)
            try upload.append(bytes[start..<end])
            start = end
        }
        return try upload.finish()
    }

    /// The names of the files in the store's `tmp/`.
    func temporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.directory + "/tmp")
    }

    /// The path of `blobId`'s file.
    func file(of blobId: String) -> String {
        store.directory + "/" + blobId.prefix(2) + "/" + blobId
    }

    /// Sets the file's modification time `age` seconds into the past.
    func age(_ path: String, by age: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// The lowercase hex SHA-256 of `bytes`: what a blob id must be.
func sha256Hex(_ bytes: some DataProtocol) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}
