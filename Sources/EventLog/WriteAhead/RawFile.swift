import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file written by offset and synced by hand: the write-ahead file, the checkpoint file and
/// LMDB's meta pages. Every failure is `.storage(.system(errno:))`, as LMDB's own would be.
final class RawFile: @unchecked Sendable {
    let path: String
    private var descriptor: Int32

    /// Opens `path` for reading and writing, creating it empty when `creating`.
    init(path: String, creating: Bool) throws(EventLogError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CLOEXEC | (creating ? O_CREAT : 0), 0o600)
        guard descriptor >= 0 else { throw Self.failure() }
    }

    /// Opens `path` for reading only: what a reader of the log may do where it may not write.
    init(readingOnly path: String) throws(EventLogError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure() }
    }

    deinit {
        close()
    }

    func close() {
        if descriptor >= 0 { Foundation.close(descriptor) }
        descriptor = -1
    }

    var size: Int {
        get throws(EventLogError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Self.failure() }
            return Int(status.st_size)
        }
    }

    /// Up to `count` bytes from `offset`: fewer only at the end of the file.
    func read(_ count: Int, at offset: Int) throws(EventLogError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Self.failure() }
            if got == 0 { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }

    func write(_ bytes: some ContiguousBytes, at offset: Int) throws(EventLogError) {
        let failed: Bool = bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return true }
                done += written
            }
            return false
        }
        if failed { throw Self.failure() }
    }

    func sync() throws(EventLogError) {
        guard fdatasync(descriptor) == 0 else { throw Self.failure() }
    }

    /// Makes the directory entry of a file just created in `directory` durable.
    static func syncDirectory(_ directory: String) throws(EventLogError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure() }
        defer { Foundation.close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure() }
    }

    private static func failure() -> EventLogError {
        .storage(.system(errno: errno))
    }
}
