import Foundation

extension AccountQueries {
    /// Items an activity page may hold; SPEC's list limit.
    public static var activityItemsPerPage: ClosedRange<Int> { 1...500 }
    /// Items on an activity page when the client names no limit.
    public static var activityItemsPerPageDefault: Int { 50 }

    /// A page of `userId`'s own events, newest first: up to `limit` items after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func activity(of userId: String, limit: Int, cursor: String?) throws(AccountQueryError) -> ActivityPage {
        let allowed = Self.activityItemsPerPage
        guard allowed.contains(limit) else { throw .limitOutOfRange(limit, allowed: allowed) }
        let prefix = AccountKeys.userPrefix(userId)
        let after = try cursor.map { cursor throws(AccountQueryError) in try ActivityCursor.key(of: cursor, prefix: prefix) }
        let entries: [(key: String, value: ActivityItem)]
        do {
            // One more than asked tells whether a next page exists, so the last page has no `next`.
            entries = try engine.read(AccountProjections.activity) {
                try $0.entries(ActivityItem.self, in: AccountActivityProjection.activity, prefix: prefix, after: after, limit: limit + 1)
            }
        } catch {
            throw .readModel(error)
        }
        let page = entries.prefix(limit)
        let next = entries.count > limit ? page.last.map { ActivityCursor.encode($0.key) } : nil
        return ActivityPage(items: page.map(\.value), next: next)
    }
}

/// The opaque activity cursor: the last key of a page, base64url-encoded without padding.
///
/// A key rather than an offset, so that events landing between two page reads neither repeat
/// an item nor skip one: newer items sort before the cursor, older ones stay after it.
enum ActivityCursor {
    static func encode(_ key: String) -> String {
        Data(key.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The key in `cursor`, checked to be an activity key of the user whose keys start with
    /// `prefix`: another user's cursor must not page through their activity.
    static func key(of cursor: String, prefix: String) throws(AccountQueryError) -> String {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        // Bytes, not characters: keys compare bytewise.
        guard let data = Data(base64Encoded: base64), data.starts(with: prefix.utf8) else { throw .malformedCursor }
        let position = data.dropFirst(prefix.utf8.count)
        guard position.count == AccountKeys.invertedPositionDigits, position.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .malformedCursor
        }
        return String(decoding: data, as: UTF8.self)
    }
}
