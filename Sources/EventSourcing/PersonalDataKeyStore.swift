import Crypto
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The key store of personal data keys, in its own directory apart from the log (`data/keys/`):
/// one file per subject holding its 256-bit data key sealed (ChaChaPoly) under a key derived
/// from the server's secret, so no plain data key is ever on disk. Erasing a subject deletes its
/// file and leaves a marker (`<id>.erased`, empty) so no new key is made for it; with the key
/// gone, every field ever sealed for it reads as erased (crypto-shredding, ADR 0004).
public final class PersonalDataKeyStore: PersonalDataKeyring {
    /// The directory's name in the data directory.
    public static let directoryName = "keys"

    private let directory: String
    private let sealingKey: SymmetricKey
    private let tagKey: SymmetricKey
    /// Keys read or made so far, and subjects known erased: the files are read once. The lock
    /// also makes "read, else create" one step, so two commands never make two keys for one user.
    private let cache = Mutex<(keys: [String: SymmetricKey], erased: Set<String>)>(([:], []))

    /// The root of the store's keys derived from the server's secret key (`LOGBOOK_SECRET_KEY`
    /// or `secret.key`): the server and the operator tools must derive it the same way.
    public static func rootKey(serverSecret: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: serverSecret, info: Data("logbook personal data v1".utf8), outputByteCount: 32)
    }

    /// The store in `<dataDirectory>/keys`, its keys sealed under subkeys of `secret`.
    public init(dataDirectory: String, secret: SymmetricKey) throws(PersonalDataError) {
        directory = (dataDirectory as NSString).appendingPathComponent(Self.directoryName)
        sealingKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("logbook personal-data key sealing v1".utf8), outputByteCount: 32)
        tagKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("logbook blind tags v1".utf8), outputByteCount: 32)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .keyStore(path: directory, reason: "\(error)")
        }
    }

    public func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? {
        try Self.check(subject)
        return try cache.withLock { cache throws -> SymmetricKey? in
            if let key = cache.keys[subject] { return key }
            if cache.erased.contains(subject) { return nil }
            if FileManager.default.fileExists(atPath: path(subject, "erased")) {
                cache.erased.insert(subject)
                return nil
            }
            if let key = try load(subject) {
                cache.keys[subject] = key
                return key
            }
            guard create else { return nil }
            let key = SymmetricKey(size: .bits256)
            try store(key, of: subject)
            cache.keys[subject] = key
            return key
        }
    }

    public func blindTag(_ purpose: String, _ value: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data((purpose + "\u{0}" + value).utf8), using: tagKey)
        return code.map { String(format: "%02x", $0) }.joined()
    }

    /// Destroys `subject`'s key: its file goes (the directory synced, so the deletion is
    /// durable) and a marker stays so no new key is made for it. Idempotent.
    public func erase(_ subject: String) throws {
        try Self.check(subject)
        try cache.withLock { cache throws in
            cache.keys[subject] = nil
            cache.erased.insert(subject)
            try writeFile(Data(), to: path(subject, "erased"))
            if unlink(path(subject, "key")) != 0, errno != ENOENT {
                throw PersonalDataError.keyStore(path: path(subject, "key"), reason: String(cString: strerror(errno)))
            }
            try syncDirectory()
        }
    }

    /// Whether `subject` was erased.
    public func isErased(_ subject: String) throws -> Bool {
        try Self.check(subject)
        return FileManager.default.fileExists(atPath: path(subject, "erased"))
    }

    // MARK: Files

    private func path(_ subject: String, _ suffix: String) -> String {
        (directory as NSString).appendingPathComponent("\(subject).\(suffix)")
    }

    /// Ids of users are UUIDs; anything that could leave the directory is refused.
    private static func check(_ subject: String) throws(PersonalDataError) {
        let allowed = subject.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        }
        guard allowed, !subject.isEmpty, subject.utf8.count <= 128 else { throw .invalidSubject(subject) }
    }

    private func load(_ subject: String) throws -> SymmetricKey? {
        let file = path(subject, "key")
        guard let sealed = FileManager.default.contents(atPath: file) else { return nil }
        guard let box = try? ChaChaPoly.SealedBox(combined: sealed),
              let bytes = try? ChaChaPoly.open(box, using: sealingKey, authenticating: Data(subject.utf8)),
              bytes.count == 32 else {
            throw PersonalDataError.keyStore(path: file, reason: "it does not open with the server's secret key (another secret, or altered)")
        }
        return SymmetricKey(data: bytes)
    }

    private func store(_ key: SymmetricKey, of subject: String) throws {
        let sealed = try key.withUnsafeBytes { bytes in
            try ChaChaPoly.seal(Data(bytes), using: sealingKey, authenticating: Data(subject.utf8)).combined
        }
        try writeFile(sealed, to: path(subject, "key"))
        try syncDirectory()
    }

    /// `data` into `file` atomically and durably: a temporary file, fsync, rename.
    private func writeFile(_ data: Data, to file: String) throws {
        let temporary = file + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PersonalDataError.keyStore(path: temporary, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, file) == 0 else {
            unlink(temporary)
            throw PersonalDataError.keyStore(path: file, reason: "could not write it")
        }
    }

    private func syncDirectory() throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PersonalDataError.keyStore(path: directory, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw PersonalDataError.keyStore(path: directory, reason: "fsync failed") }
    }
}
