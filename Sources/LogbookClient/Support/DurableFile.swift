import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that are either there whole or not at all: written to a temporary name in the same
/// directory (owner-only, 0600), synced, renamed over the target, and the directory synced, so
/// a crash or a torn write leaves the previous file (or none), never part of one. Readers skip
/// the temporary names (`isTemporary`).
enum DurableFile {
    static let temporarySuffix = ".partial"

    static func isTemporary(_ name: String) -> Bool { name.hasSuffix(temporarySuffix) }

    static func replace(_ url: URL, with data: Data) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)\(temporarySuffix)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableFileError(operation: "create", path: temporary.path, code: errno) }
        var failed = true
        defer {
            if failed { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            try data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw DurableFileError(operation: "write", path: temporary.path, code: errno)
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw DurableFileError(operation: "fsync", path: temporary.path, code: errno) }
        }
        guard rename(temporary.path, url.path) == 0 else { throw DurableFileError(operation: "rename", path: url.path, code: errno) }
        failed = false
        try syncDirectory(directory)
    }

    /// Removes `url` and syncs its directory, so the removal outlives a crash too.
    static func remove(_ url: URL) throws {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw DurableFileError(operation: "unlink", path: url.path, code: errno) }
        try syncDirectory(url.deletingLastPathComponent())
    }

    /// Creates `url` (and its parents) owner-only, 0700, unless it exists.
    static func createDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    static func syncDirectory(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DurableFileError(operation: "open", path: directory.path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw DurableFileError(operation: "fsync", path: directory.path, code: errno) }
    }
}

/// A file of the client's own that could not be written or removed.
public struct DurableFileError: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let code: Int32

    public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}
