import Foundation

/// A small file of the data directory created only if absent (`O_EXCL`), owner-only, fsync'd:
/// how the secret key and its check value are first stored, so that two servers starting on one
/// directory at once keep the first one's and neither overwrites the other's.
enum NewPrivateFile {
    /// Writes `text` to a new file at `path`; false, writing nothing, when the file exists. A
    /// write that fails leaves no file.
    static func create(at path: String, text: String) throws(AuthSecretsError) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            guard errno == EEXIST else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
            return false
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            unlink(path)
            throw .unusable(path: path, reason: "could not write it")
        }
        return true
    }
}
