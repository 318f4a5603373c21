/// A password-reset token encrypted by the server with a key the log never sees, as base64.
///
/// The log stores it so the outbox read model can hand the mailer the token without the log
/// holding it in plain text. The domain treats it as opaque; it only checks the shape, so a
/// token passed here unsealed by mistake is at least not accepted when it is not base64.
public struct SealedToken: Sendable, Hashable, Codable {
    /// Characters at most: a sealed 256-bit token is about 80; more is a caller's mistake.
    public static let lengthMax = 1_024

    /// The sealed token as base64 (standard or URL-safe alphabet, padding optional).
    public let base64: String

    /// The sealed token in `base64`, or nil when it is empty, too long, or not base64.
    public init?(base64: String) {
        guard Self.isBase64(base64) else { return nil }
        self.base64 = base64
    }

    /// Decodes the sealed token from a JSON string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard Self.isBase64(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not base64")
        }
        base64 = text
    }

    /// Encodes the sealed token as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }

    private static func isBase64(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= lengthMax && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="): true
            default: false
            }
        }
    }
}
