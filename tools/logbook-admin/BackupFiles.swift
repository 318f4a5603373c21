import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations of `backup`: every file and directory it makes is fsync'd before the
/// backup says it is complete, so a copy that was reported survives a power failure.
enum BackupFiles {
    /// Why a file operation failed: the operation, the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ operation: String, _ path: String, errno code: Int32 = errno) {
            description = "\(operation) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// Whether `path` is missing or an empty directory (not a file, not a directory holding
    /// anything): what `backup` may write into.
    static func isMissingOrEmptyDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return true }
        guard isDirectory.boolValue, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        return names.isEmpty
    }

    /// Creates the directory `path` (its parents too) with `mode`, unless it exists, and syncs
    /// its parent so the name lasts. Its owner's only, by default, as the data directory's are:
    /// a backup holds the log, the read models, the images and the keys.
    static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws(Failure) {
        if mkdir(path, mode) != 0 {
            if errno == EEXIST { return }
            guard errno == ENOENT else { throw Failure("mkdir", path) }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(mode)])
            } catch {
                throw Failure("mkdir", path, errno: EIO)
            }
        }
        try syncDirectory(parent(of: path))
    }

    /// fsync of a directory: makes the names created in it durable.
    static func syncDirectory(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure("open directory", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure("fsync directory", path) }
    }

    /// The bytes of the regular file at `path`; nil when there is none.
    static func contents(of path: String) throws(Failure) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure("open", path)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure("read", path) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Writes `data` as the new file `path` (never over an existing one) with `mode`, and fsyncs it.
    static func create(_ path: String, holding data: Data, mode: mode_t) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure("create", path) }
        defer { close(descriptor) }
        var failure: Int32?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if let failure { throw Failure("write", path, errno: failure) }
        guard fsync(descriptor) == 0 else { throw Failure("fsync", path) }
    }

    /// Copies every regular file of the directory `source` into the new directory `target`
    /// (mode `mode`), each file keeping its owner's permission bits (and no one else's); returns
    /// the files and bytes copied.
    /// Nothing when `source` is missing.
    static func copyFiles(of source: String, into target: String, mode: mode_t) throws(Failure) -> (files: Int, bytes: Int) {
        guard FileManager.default.fileExists(atPath: source) else { return (0, 0) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        } catch {
            throw Failure("list", source, errno: EIO)
        }
        try makeDirectory(target, mode: mode)
        var files = 0, bytes = 0
        for name in names {
            var info = stat()
            let path = source + "/" + name
            guard lstat(path, &info) == 0 else {
                if errno == ENOENT { continue }  // removed meanwhile (a key being erased)
                throw Failure("stat", path)
            }
            guard (info.st_mode & S_IFMT) == S_IFREG, let data = try contents(of: path) else { continue }
            try create(target + "/" + name, holding: data, mode: info.st_mode & 0o700)
            files += 1
            bytes += data.count
        }
        try syncDirectory(target)
        return (files, bytes)
    }

    /// The directory holding `path`.
    static func parent(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }
}
