import Foundation

extension HouseholdQueries {
    /// A page of the house's history, newest first: up to `limit` items after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func history(house houseId: String, limit: Int, cursor: String?) throws(ListQueryError) -> HistoryPage {
        let prefix = HouseholdKeys.housePrefix(houseId)
        let after = try ListPage.start(limit: limit, cursor: cursor, prefix: prefix)
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
        let next = entries.count > limit ? page.last.map { PageCursor.encode($0.key) } : nil
        return HistoryPage(items: page.map(\.value), next: next)
    }
}
