/// A bcrypt hash of a password (`$2b$12$` and 53 characters of salt and hash).
///
/// The only form in which a password reaches this module: commands and events take this type,
/// never a `String`, and it can only be built from text shaped like a bcrypt hash. So a
/// plaintext password cannot slip into a command, and from there into the log, by mistake.
public struct PasswordHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Characters in a bcrypt hash in modular crypt format.
    public static let bcryptLength = 60

    /// The hash in modular crypt format.
    public let bcrypt: String

    /// The hash in `bcrypt`, or nil when `bcrypt` is not shaped like one.
    public init?(bcrypt: String) {
        guard Self.isBcrypt(bcrypt) else { return nil }
        self.bcrypt = bcrypt
    }

    /// Decodes the hash from a JSON string, refusing anything not shaped like bcrypt.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard Self.isBcrypt(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a bcrypt hash")
        }
        bcrypt = text
    }

    /// Encodes the hash as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bcrypt)
    }

    /// Only the algorithm and cost: a hash is not a secret, but logs have no use for it either.
    public var description: String { "PasswordHash(\(bcrypt.prefix(7))…)" }

    /// `$2a$`/`$2b$`/`$2y$`, a two-digit cost 04–31, `$`, then 53 characters of `./A-Za-z0-9`.
    static func isBcrypt(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == bcryptLength,
              bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
              [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
              bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
              let cost = Int(String(decoding: bytes[4...5], as: UTF8.self)), (4...31).contains(cost)
        else { return false }
        return bytes[7...].allSatisfy(isBcryptAlphabet)
    }

    private static func isBcryptAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "/"): true
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: false
        }
    }
}
