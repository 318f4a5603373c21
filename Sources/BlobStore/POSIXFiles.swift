import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few system calls the store makes, each turning a failure into `BlobStoreError.io` with
/// the operation and `errno`, so that a disk problem is reported as such and never as the
/// client's fault.
enum POSIXFiles {
    /// The failure of `operation`, with the current `errno`.
    static func failure(_ operation: String) -> BlobStoreError {
        .io(operation: operation, errno: errno)
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying short writes and interruptions.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(BlobStoreError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("write")
            }
            offset += written
        }
    }

    /// Reads `count` bytes from the start of `descriptor`; fewer when the file is shorter.
    static func readAll(_ descriptor: Int32, count: Int) throws(BlobStoreError) -> Data {
        var data = Data(count: count)
        var offset = 0
        var failed = false
        data.withUnsafeMutableBytes { buffer in
            while offset < count {
                let got = read(descriptor, buffer.baseAddress! + offset, count - offset)
                if got < 0, errno == EINTR { continue }
                if got < 0 { failed = true }
                if got <= 0 { break }
                offset += got
            }
        }
        if failed { throw failure("read") }
        return data.prefix(offset)
    }

    /// fsync of a directory: makes the names created or renamed in it durable.
    static func syncDirectory(_ path: String) throws(BlobStoreError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open directory") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync directory") }
    }

    /// Creates `path` as a directory; true when it was made now, false when it existed.
    static func makeDirectory(_ path: String) throws(BlobStoreError) -> Bool {
        if mkdir(path, 0o700) == 0 { return true }
        guard errno == EEXIST else { throw failure("mkdir") }
        return false
    }

    /// The size and modification time of the file at `path`, nil when there is none.
    static func status(_ path: String) throws(BlobStoreError) -> (bytes: Int, modified: Date, isFile: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw failure("stat")
        }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let modified = Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        return (Int(info.st_size), modified, (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// The names in the directory at `path`, without `.` and `..`; empty when it is missing.
    static func names(in path: String) throws(BlobStoreError) -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw failure("opendir")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Runs `body` holding the lock file at `path` shared (uploads placing a blob) or exclusive
    /// (collection deleting one), across processes: `flock` on a descriptor of its own.
    static func withLock<T>(_ path: String, exclusive: Bool, _ body: () throws(BlobStoreError) -> T) throws(BlobStoreError) -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("open lock") }
        defer { close(descriptor) }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { throw failure("flock") }
        }
        return try body()
    }
}
