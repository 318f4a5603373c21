import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The file a generated secret key lives in: base64 text, mode 0600, created exclusively so two
/// processes starting at once agree on one key.
struct SecretKeyFile {
    let path: String

    init(directory: String, name: String) {
        path = (directory as NSString).appendingPathComponent(name)
    }

    /// The key in the file; a new random one, stored first, when there is no file.
    func loadOrCreate() throws(AuthSecretsError) -> SymmetricKey {
        if let key = try load() { return key }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unusable(path: path, reason: "\(error)")
        }
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
        guard try NewPrivateFile.create(at: path, text: text) else {
            // Another process created it first: use theirs.
            guard let key = try load() else { throw .unusable(path: path, reason: "it vanished while being read") }
            return key
        }
        return key
    }

    /// The key in the file; nil when there is no file.
    private func load() throws(AuthSecretsError) -> SymmetricKey? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .unusable(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & 0o077 == 0 else { throw .exposed(path: path) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .unusable(path: path, reason: "it cannot be read as text")
        }
        guard let key = AuthSecrets.decode(text) else { throw .malformed(source: path) }
        return key
    }
}
