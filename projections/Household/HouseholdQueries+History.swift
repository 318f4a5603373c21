import EventSourcing
import Foundation

extension HouseholdQueries {
    /// A page of the house's history, newest first: up to `limit` items (50 when nil) after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func history(house houseId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> HistoryPage {
        let prefix = HouseholdKeys.housePrefix(houseId)
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            var page = try engine.read(HouseholdProjections.history) {
                let page = try $0.page(HistoryItem.self, in: HouseholdHistoryProjection.history, prefix: prefix, request)
                return HistoryPage(items: page.entries.map(\.value), next: page.next)
            }
            for index in page.items.indices {
                page.items[index].displayName = try openedName(page.items[index].displayName, of: page.items[index].userId)
            }
            return page
        } catch {
            throw .readModel(error)
        }
    }

    /// A completer's name as `history` and `tasks` keep it (as the log stores it: sealed),
    /// opened with the engine's keyring; an erased user's reads as `PersonalDataSeal.deletedUser`
    /// from the moment the key is gone (ADR 0009).
    func openedName(_ stored: String, of userId: String) throws(ReadModelError) -> String {
        try engine.opened(stored, of: userId, erased: PersonalDataSeal.deletedUser, what: "a completer's name")
    }
}
