import Foundation

extension HouseholdQueries {
    /// Items a history page may hold; SPEC's list limit.
    public static var historyItemsPerPage: ClosedRange<Int> { 1...500 }
    /// Items on a history page when the client names no limit.
    public static var historyItemsPerPageDefault: Int { 50 }

    /// A page of the house's history, newest first: up to `limit` items after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func history(house houseId: String, limit: Int, cursor: String?) throws(HouseholdQueryError) -> HistoryPage {
        let allowed = Self.historyItemsPerPage
        guard allowed.contains(limit) else { throw .limitOutOfRange(limit, allowed: allowed) }
        let prefix = HouseholdKeys.housePrefix(houseId)
        let after = try cursor.map { cursor throws(HouseholdQueryError) in try HistoryCursor.key(of: cursor, prefix: prefix) }
        let entries: [(key: String, value: HistoryItem)]
        do {
            // One more than asked tells whether a next page exists, so the last page has no
            // `next` and a client never fetches an empty page.
            entries = try engine.read(HouseholdProjections.history) {
                try $0.entries(HistoryItem.self, in: HouseholdHistoryProjection.history, prefix: prefix, after: after, limit: limit + 1)
            }
        } catch {
            throw .readModel(error)
        }
        let page = entries.prefix(limit)
        let next = entries.count > limit ? page.last.map { HistoryCursor.encode($0.key) } : nil
        return HistoryPage(items: page.map(\.value), next: next)
    }
}

/// The opaque history cursor: the last key of a page, base64url-encoded without padding.
///
/// A key rather than an offset, so that completions landing between two page reads neither
/// repeat an item nor skip one: new items sort before the cursor, old ones stay after it.
enum HistoryCursor {
    static func encode(_ key: String) -> String {
        Data(key.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The key in `cursor`, checked to be a history key of the house whose keys start with
    /// `prefix`: a cursor of another house or a made-up one would otherwise page somewhere else.
    static func key(of cursor: String, prefix: String) throws(HouseholdQueryError) -> String {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        // Bytes, not characters: keys compare bytewise, and `String.hasPrefix` compares by Unicode
        // equivalence.
        guard let data = Data(base64Encoded: base64), data.starts(with: prefix.utf8) else { throw .malformedCursor }
        let position = data.dropFirst(prefix.utf8.count)
        guard position.count == HouseholdKeys.invertedPositionDigits, position.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .malformedCursor
        }
        return String(decoding: data, as: UTF8.self)
    }
}
