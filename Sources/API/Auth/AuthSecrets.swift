import Accounts
import Crypto
import EventSourcing
import Foundation

/// The server's secret key and what it is used for: sealing reset tokens for the outbox,
/// deriving the ids and tokens of retried commands (see `derivedToken`), and sealing the
/// personal data key store.
///
/// The key is `LOGBOOK_SECRET_KEY` (base64 of 32 bytes) when set; otherwise one generated on
/// first start and kept in `<dataDirectory>/secret.key`, readable by the owner only. Each use
/// gets its own subkey (HKDF), so no two uses ever share a key.
struct AuthSecrets: Sendable {
    /// Bytes in the key.
    static let keyBytes = 32
    /// The key file's name in the data directory.
    static let fileName = "secret.key"

    private let sealingKey: SymmetricKey
    private let derivationKey: SymmetricKey
    /// The root of the personal data key store: data keys are sealed under a subkey of it, and
    /// uniqueness tags are keyed with another (`PersonalDataKeyStore`, ADR 0004).
    let personalDataKey: SymmetricKey
    /// What the log keeps to tell whether a server has its servers' key (`AuthSecretCheck`).
    let logCheck: [UInt8]

    /// Subkeys of `key`, which must hold `keyBytes` bytes.
    init(key: SymmetricKey) {
        precondition(key.bitCount == Self.keyBytes * 8, "the secret key holds 32 bytes")
        sealingKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("logbook reset-token sealing v1".utf8), outputByteCount: 32)
        derivationKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("logbook retry derivation v1".utf8), outputByteCount: 32)
        personalDataKey = PersonalDataKeyStore.rootKey(serverSecret: key)
        logCheck = AuthSecretCheck.value(of: key)
    }

    /// The key from `environment`, else from the data directory's key file, created if missing.
    static func load(dataDirectory: String, environment: [String: String]) throws(AuthSecretsError) -> AuthSecrets {
        if let text = environment[LogbookConfiguration.secretKeyVariable], !text.isEmpty {
            guard let key = decode(text) else { throw .malformed(source: LogbookConfiguration.secretKeyVariable) }
            return AuthSecrets(key: key)
        }
        return AuthSecrets(key: try SecretKeyFile(directory: dataDirectory, name: fileName).loadOrCreate())
    }

    /// The key in base64 `text`, or nil when it is not base64 of exactly `keyBytes` bytes.
    static func decode(_ text: String) -> SymmetricKey? {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              data.count == keyBytes else { return nil }
        return SymmetricKey(data: data)
    }

    /// `token` encrypted and authenticated (ChaChaPoly, random nonce), for the log and outbox.
    func seal(_ token: String) -> SealedToken {
        // Sealing with a valid key cannot fail, and base64 of the combined box is always valid.
        let box = try! ChaChaPoly.seal(Data(token.utf8), using: sealingKey)
        return SealedToken(base64: box.combined.base64EncodedString())!
    }

    /// The token `sealed` holds, or nil when it was not sealed with this key or was altered.
    func unseal(_ sealed: SealedToken) -> String? {
        guard let data = Data(base64Encoded: sealed.base64),
              let box = try? ChaChaPoly.SealedBox(combined: data),
              let token = try? ChaChaPoly.open(box, using: sealingKey) else { return nil }
        return String(data: token, encoding: .utf8)
    }

    /// A token for `purpose` made from the parts of a request, the same for the same parts.
    ///
    /// A retried login or registration (same Idempotency-Key) is answered with the first
    /// outcome, which holds only the token's hash; deriving the token from the key lets the
    /// retry hand out the same token again. It is as unguessable as a random one to anyone
    /// without the server's key, and it is only handed out after the password was checked again.
    func derivedToken(_ purpose: String, _ parts: String...) -> String {
        AuthTokens.text(of: mac(purpose, parts))
    }

    /// A version-8 UUID for `purpose` made from `parts`: a retried registration gets the same
    /// account id (the retry must run as the same actor), and its session command the same id.
    func derivedUUID(_ purpose: String, _ parts: String...) -> UUID {
        var bytes = Array(mac(purpose, parts).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    private func mac(_ purpose: String, _ parts: [String]) -> [UInt8] {
        // NUL cannot occur in the parts (UUIDs and ids), so the message is unambiguous.
        let message = ([purpose] + parts).joined(separator: "\u{0}")
        return Array(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: derivationKey))
    }
}

/// Why the server's secret key could not be had. The server does not start without it.
enum AuthSecretsError: Error, CustomStringConvertible {
    /// The key in `source` is not base64 of 32 bytes.
    case malformed(source: String)
    /// The key file may be read by others than its owner.
    case exposed(path: String)
    /// The key file could not be read or written.
    case unusable(path: String, reason: String)
    /// The key (from `source`) is not the one the log at `log` was first served with.
    case differsFromLog(source: String, log: String)

    var description: String {
        switch self {
        case let .malformed(source): "\(source) must hold base64 of exactly 32 bytes (openssl rand -base64 32)"
        case let .exposed(path): "\(path) may be read by others; chmod 600 it (it holds the server's secret key)"
        case let .unusable(path, reason): "cannot use the secret key file \(path): \(reason)"
        case let .differsFromLog(source, log):
            "\(source) is not the secret key the log \(log) was first served with; every server on one log needs the same "
                + "\(LogbookConfiguration.secretKeyVariable) (personal data and tokens are sealed under it): "
                + "set \(LogbookConfiguration.secretKeyVariable) to the key the log's servers have"
        }
    }
}
