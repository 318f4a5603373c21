import Foundation

/// What makes two questions the same: their text, ignoring case, surrounding space and runs of
/// space. Importing the same bank twice then adds nothing the second time.
public enum QuestionText {
    /// `text` lower-cased with its whitespace trimmed and collapsed.
    public static func normalised(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A short key of the normalised text for the `question-text:` tag: FNV-1a, 64 bits, in hex.
    ///
    /// Tags are limited in length and questions are not, so the tag carries a hash; a collision
    /// only widens the boundary, because the decider compares the texts themselves.
    public static func key(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in normalised(text).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
