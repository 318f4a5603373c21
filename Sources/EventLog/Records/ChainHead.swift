/// A position of the log and the chain hash there: what an operator publishes (`logbook-admin
/// head`, `GET /v1/admin/head`) and later proves the log against (`verify --head`).
public struct ChainHead: Sendable, Equatable, CustomStringConvertible {
    /// The position the hash commits to, 0 for an empty log.
    public let position: UInt64
    /// The SHA-256 chain hash at `position` (32 bytes; all zeros at position 0).
    public let hash: [UInt8]

    /// A head from its parts; `hash` must be 32 bytes.
    public init(position: UInt64, hash: [UInt8]) {
        precondition(hash.count == ChainHash.bytes, "a chain hash is 32 bytes")
        self.position = position
        self.hash = hash
    }

    /// Parses `POS:HASH`, the form `description` prints: a decimal position, a colon and 64
    /// hexadecimal digits (either case). Nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let position = UInt64(parts[0]),
              let hash = Self.bytes(fromHex: parts[1]), hash.count == ChainHash.bytes else { return nil }
        self.init(position: position, hash: hash)
    }

    /// The hash in lowercase hexadecimal (64 digits).
    public var hashHex: String { Self.hex(hash) }

    /// `POS:HASH`, the form to publish and to give `verify --head`.
    public var description: String { "\(position):\(hashHex)" }

    /// Lowercase hexadecimal of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func bytes(fromHex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8]()
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
