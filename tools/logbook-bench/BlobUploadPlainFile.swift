import Foundation

/// The disk's own rate for an upload: the same chunks written to a temporary file, fsync,
/// rename, and fsync of the directory, with nothing else (no hashing, no sniffing, no log).
enum PlainFileWrite {
    static func write(_ bytes: [UInt8], to path: String, chunkBytes: Int) throws {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BenchError.system("open \(temporary)", errno) }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkBytes, bytes.count)
            let written = bytes[offset..<end].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else {
                close(descriptor)
                throw BenchError.system("write \(temporary)", errno)
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            close(descriptor)
            throw BenchError.system("fsync \(temporary)", errno)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw BenchError.system("rename \(temporary)", errno) }
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw BenchError.system("open directory", errno) }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw BenchError.system("fsync directory", errno) }
    }
}
