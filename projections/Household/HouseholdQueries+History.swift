import Foundation

extension HouseholdQueries {
    /// A page of the house's history, newest first: up to `limit` items (50 when nil) after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func history(house houseId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> HistoryPage {
        let prefix = HouseholdKeys.housePrefix(houseId)
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            return try engine.read(HouseholdProjections.history) {
                let page = try $0.page(HistoryItem.self, in: HouseholdHistoryProjection.history, prefix: prefix, request)
                return HistoryPage(items: page.entries.map(\.value), next: page.next)
            }
        } catch {
            throw .readModel(error)
        }
    }
}
