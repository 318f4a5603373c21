import Crypto
import Foundation

/// The envelope of one sealed personal field: `sealed:v1:<base64 of nonce | ciphertext | tag>`
/// (ChaChaPoly, the subject's id as authenticated data, so a value copied into another user's
/// event does not open), or `sealed:v1:-` for a value written for an already erased subject.
public enum PersonalDataSeal {
    /// Every sealed value starts with it.
    public static let prefix = "sealed:v1:"
    /// Stands for a value of an erased subject: nothing was ever sealed.
    public static let erasedMarker = "sealed:v1:-"
    /// What an erased user's name reads as, in every domain.
    public static let deletedUser = "Deleted user"

    /// `text` sealed under `subject`'s key (created if it has none).
    public static func seal(_ text: String, subject: String, keyring: any PersonalDataKeyring) throws -> String {
        guard let key = try keyring.dataKey(of: subject, create: true) else { return erasedMarker }
        let box = try ChaChaPoly.seal(Data(text.utf8), using: key, authenticating: Data(subject.utf8))
        return prefix + box.combined.base64EncodedString()
    }

    /// The text `stored` holds: as it is when plain (written before sealing existed), opened
    /// when sealed, nil when its subject is erased. Throws when it does not open with the key.
    ///
    /// Every projection that decodes an event opens its sealed fields, so this works on the
    /// string's UTF-8 bytes: no substring, `Data` or Foundation base64 on the way (ADR 0004).
    public static func open(_ stored: String, subject: String, keyring: (any PersonalDataKeyring)?) throws -> String? {
        guard stored.utf8.starts(with: prefixUTF8) else { return stored }
        guard let keyring else { throw PersonalDataError.noKeyring }
        if stored.utf8.elementsEqual(erasedMarkerUTF8) { return nil }
        guard let key = try keyring.dataKey(of: subject, create: false) else { return nil }
        guard let combined = Base64Bytes.decode(stored.utf8.dropFirst(prefixUTF8.count)),
              let box = try? ChaChaPoly.SealedBox(combined: combined),
              let plain = try? ChaChaPoly.open(box, using: key, authenticating: Array(subject.utf8)),
              let text = String(validating: plain, as: UTF8.self) else { throw PersonalDataError.tampered(subject: subject) }
        return text
    }

    private static let prefixUTF8 = Array(prefix.utf8)
    private static let erasedMarkerUTF8 = Array(erasedMarker.utf8)
}
