import Foundation

/// The opaque cursors of the admin lists: where the next page's read starts, named for the list
/// that issued it (`events:`, `stream:forward:`, `stream:backward:`, `audit:`), in base64url
/// without padding like every other list's cursor.
///
/// A key (a position, or a version in one stream), not an offset: events appended between two
/// page reads neither repeat an item nor skip one.
enum AdminCursor {
    /// The cursor of `list` resuming at `key`.
    static func encode(_ key: UInt64, list: String) -> String {
        Data("\(list):\(key)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The key in `cursor`; nil when there is none; 400 `invalid_cursor` when it was not issued
    /// by `list` (another list's, or made up).
    static func key(of cursor: String?, list: String) throws -> UInt64? {
        guard let cursor else { return nil }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              text.hasPrefix(list + ":"), case let digits = text.dropFirst(list.count + 1),
              !digits.isEmpty, digits.count <= 20, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let key = UInt64(digits)
        else {
            throw Problem(status: .badRequest, code: "invalid_cursor", title: "Invalid cursor", detail: "the cursor was not issued for this list")
        }
        return key
    }
}
