import Crypto
import Foundation

/// SHA-256 digests spelled as 64 lowercase hex digits: how a blob's content id is written, and
/// how a value stands in a subject pure code names (the sealing step keys it). Here, rather than
/// in the blobs domain, so that the domains that reference a blob (albums, accounts, workplace)
/// check an id's shape without depending on it.
public enum SHA256Hex {
    /// Hex digits in a digest.
    public static let characters = 64

    /// The SHA-256 of `text`'s UTF-8 bytes in lowercase hex.
    public static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `text` is exactly 64 lowercase hex digits. Upper case is refused rather than
    /// folded: a blob's id is one spelling, so that one file never answers to two ids.
    public static func isDigest(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == characters else { return false }
        return utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
