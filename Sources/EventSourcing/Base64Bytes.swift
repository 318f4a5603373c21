/// Standard base64 (RFC 4648 §4, `=`-padded), exactly as `Data.base64EncodedString()` writes
/// a sealed field, decoded straight from a string's UTF-8 bytes.
///
/// Why not `Data(base64Encoded:)`: every event a projection decodes opens its sealed fields, and
/// going through Foundation cost a `String` copy of the field, the decoding and a `Data` per field
/// (a fifth of opening a household completion's one sealed name). Strict: anything but the
/// alphabet with its padding at the end (whitespace, a missing `=`, bits set in the padding) is
/// nil, and then the caller refuses the field as tampered, as before.
enum Base64Bytes {
    /// The bytes `text` encodes; nil when it is not strict, padded base64.
    static func decode(_ text: Substring.UTF8View) -> [UInt8]? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode($0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode($0) }  // a bridged string's bytes
    }

    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        guard !text.isEmpty else { return [] }
        let padding = text[text.count - 1] != equals ? 0 : text[text.count - 2] != equals ? 1 : 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3 - padding)
        var index = 0
        while index < text.count {
            let last = index + 4 == text.count
            let a = sextets[Int(text[index])], b = sextets[Int(text[index + 1])]
            let c = last && padding == 2 ? 0 : sextets[Int(text[index + 2])]
            let d = last && padding >= 1 ? 0 : sextets[Int(text[index + 3])]
            guard (a | b | c | d) & invalid == 0 else { return nil }
            let quad = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            bytes.append(UInt8(truncatingIfNeeded: quad >> 16))
            if last && padding == 2 {
                guard quad & 0xFFFF == 0 else { return nil }  // the bits a padded quad leaves unused
                break
            }
            bytes.append(UInt8(truncatingIfNeeded: quad >> 8))
            if last && padding == 1 {
                guard quad & 0xFF == 0 else { return nil }
                break
            }
            bytes.append(UInt8(truncatingIfNeeded: quad))
            index += 4
        }
        return bytes
    }

    private static let equals = UInt8(ascii: "=")
    /// Any value with this bit is not a sextet; OR-ing four values keeps it.
    private static let invalid: UInt8 = 0x80

    /// Each byte's value in the alphabet, or 0xFF.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()
}
