import Crypto
import Foundation
import PostgresEventLog
#if canImport(Glibc)
import Glibc
#endif

/// The check that a server has the secret key its log was written with (SPEC §3a: the servers
/// of one log share `LOGBOOK_SECRET_KEY`). Without it, a server with another key starts and
/// then cannot open the personal-data keys, tokens or ids the others sealed and derived: valid
/// logins answer 401 or 503 for ever. With it, such a server refuses to start and says which
/// variable is wrong.
///
/// The log keeps a check value: an HMAC-SHA256, under a subkey of the secret (HKDF with a label
/// of its own, so no other use shares it), of a fixed label. It tells whether two keys are the
/// same and nothing about either (HMAC is a PRF; the key holds 256 random bits, so trying keys
/// against the value is hopeless). The first server to start on a log stores its own value;
/// that includes the first start of this release on a log written before the check existed,
/// which therefore trusts that server's key. Where it is kept:
///
/// - a PostgreSQL log: its `logbook_secret_check` row, beside the events and the shared
///   personal-data keys (`PostgresEventStore.secretCheck(storingIfAbsent:)`);
/// - a data directory's own log: `secret.check` in the directory, beside `keys/`, which is
///   what the key seals; it catches a `LOGBOOK_SECRET_KEY` set (or changed) on a directory
///   that was served with another key, or with its `secret.key`.
///
/// `logbook-admin` does not check: it needs the key only where it opens personal data.
enum AuthSecretCheck {
    /// The file of a data directory's own log that holds its check value.
    static let fileName = "secret.check"

    /// The check value of `key`.
    static func value(of key: SymmetricKey) -> [UInt8] {
        let checkKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("logbook log secret check v1".utf8), outputByteCount: 32)
        return Array(HMAC<SHA256>.authenticationCode(for: Data("logbook: the servers of this log share this key".utf8), using: checkKey))
    }

    /// Refuses to go on, naming `LOGBOOK_SECRET_KEY`, unless the secret key `environment` or the
    /// data directory gives is the one `log` was first served with; stores its check value on
    /// a log that has none yet. Before anything is written with the key.
    static func verify(log: EventLogBackend, dataDirectory: String, environment: [String: String]) async throws {
        let secrets = try AuthSecrets.load(dataDirectory: dataDirectory, environment: environment)
        let stored = switch log {
        case .postgres(let store): try await store.secretCheck(storingIfAbsent: secrets.logCheck)
        case .lmdb: try CheckFile(path: (dataDirectory as NSString).appendingPathComponent(fileName)).storingIfAbsent(secrets.logCheck)
        }
        guard stored != secrets.logCheck else { return }
        let variable = LogbookConfiguration.secretKeyVariable
        let source = if let text = environment[variable], !text.isEmpty {
            variable
        } else {
            "the secret key in \((dataDirectory as NSString).appendingPathComponent(AuthSecrets.fileName)) (\(variable) is not set)"
        }
        throw AuthSecretsError.differsFromLog(source: source, log: log.location)
    }

    /// A data directory's check file: hex text, mode 0600, created exclusively.
    private struct CheckFile {
        let path: String

        /// The value in the file; `value`, stored first, when there is no file.
        func storingIfAbsent(_ value: [UInt8]) throws(AuthSecretsError) -> [UInt8] {
            let text = value.map { String(format: "%02x", $0) }.joined() + "\n"
            return try NewPrivateFile.create(at: path, text: text) ? value : try stored()
        }

        private func stored() throws(AuthSecretsError) -> [UInt8] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .unusable(path: path, reason: "it cannot be read as text")
            }
            let hex = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
            guard hex.count == 64 else { throw .unusable(path: path, reason: "it does not hold a check value") }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: hex.count, by: 2) {
                guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else {
                    throw .unusable(path: path, reason: "it does not hold a check value")
                }
                bytes.append(byte)
            }
            return bytes
        }
    }
}
