/// The SHA-256 of a session or password-reset token, as 64 lowercase hex digits.
///
/// The caller generates the token, hands it to the user, and passes only this hash in: the log
/// can then recognise a token without holding it, and a reader of the log cannot use one.
public struct TokenHash: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Hex digits in a SHA-256.
    public static let hexLength = 64

    /// The hash as lowercase hex.
    public let hex: String

    /// The hash in `hex` (either case), or nil when it is not 64 hex digits.
    public init?(hex: String) {
        let lowered = hex.lowercased()
        guard Self.isHex(lowered) else { return nil }
        self.hex = lowered
    }

    /// The hash whose 32 bytes are `digest`, as lowercase hex. By hand: `String(format:)` per
    /// byte was a fifth of an authenticated request's time (issue 9's profile).
    public init(digest: some Sequence<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        hex = String(unsafeUninitializedCapacity: Self.hexLength) { buffer in
            var written = 0
            for byte in digest {
                precondition(written < Self.hexLength, "a SHA-256 digest is 32 bytes")
                buffer[written] = digits[Int(byte >> 4)]
                buffer[written + 1] = digits[Int(byte & 0x0F)]
                written += 2
            }
            precondition(written == Self.hexLength, "a SHA-256 digest is 32 bytes")
            return written
        }
    }

    /// Decodes the hash from a JSON string of 64 lowercase hex digits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard Self.isHex(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a lowercase hex SHA-256")
        }
        hex = text
    }

    /// Encodes the hash as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    /// Orders by hex, so events about several tokens come out in a stable order.
    public static func < (lhs: TokenHash, rhs: TokenHash) -> Bool { lhs.hex < rhs.hex }

    /// A short prefix, enough to tell tokens apart in a log line.
    public var description: String { "TokenHash(\(hex.prefix(8))…)" }

    private static func isHex(_ text: String) -> Bool {
        text.utf8.count == hexLength && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }
}
