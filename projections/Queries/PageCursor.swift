import Foundation

/// The opaque cursor of a list read newest first: the last key of a page, base64url without
/// padding, for keys of the form `<prefix><inverted position>`.
///
/// A key rather than an offset, so that items landing between two page reads neither repeat an
/// item nor skip one: new items sort before the cursor, old ones stay after it.
public enum PageCursor {
    /// The cursor naming `key`.
    static func encode(_ key: String) -> String {
        Data(key.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The key in `cursor`, checked to be `prefix` followed by an inverted position; nil for
    /// anything else (another list's cursor, or a made-up one would page somewhere else).
    static func key(of cursor: String, prefix: String) -> String? {
        // Bytes, not characters: keys compare bytewise, and `String.hasPrefix` compares by Unicode
        // equivalence.
        guard let data = bytes(of: cursor), data.starts(with: prefix.utf8) else { return nil }
        let position = data.dropFirst(prefix.utf8.count)
        guard position.count == ReadModelKeys.numberDigits, position.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The key bytes `cursor` names: base64url without padding undone; nil when it is not that.
    static func bytes(of cursor: String) -> Data? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
