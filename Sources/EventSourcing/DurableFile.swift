import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Small files of the key directory written so that a crash or power loss leaves the old file or
/// the new one, never a torn one: a temporary file, fsync, rename, then the directory fsynced.
public enum DurableFile {
    /// `data` into `file`, atomically and durably.
    public static func write(_ data: Data, to file: String) throws(PersonalDataError) {
        let temporary = file + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .keyStore(path: temporary, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, file) == 0 else {
            unlink(temporary)
            throw .keyStore(path: file, reason: "could not write it")
        }
        try syncDirectory(of: file)
    }

    /// Removes `file` if it exists, durably.
    public static func remove(_ file: String) throws(PersonalDataError) {
        if unlink(file) != 0 {
            guard errno == ENOENT else { throw .keyStore(path: file, reason: String(cString: strerror(errno))) }
            return
        }
        try syncDirectory(of: file)
    }

    /// Makes the creations, renames and removals in `file`'s directory durable.
    public static func syncDirectory(of file: String) throws(PersonalDataError) {
        let directory = (file as NSString).deletingLastPathComponent
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .keyStore(path: directory, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .keyStore(path: directory, reason: "fsync failed") }
    }
}
