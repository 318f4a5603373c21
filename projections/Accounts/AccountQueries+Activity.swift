import Foundation

extension AccountQueries {
    /// A page of `userId`'s own events, newest first: up to `limit` items (50 when nil) after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func activity(of userId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> ActivityPage {
        let prefix = AccountKeys.userPrefix(userId)
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            return try engine.read(AccountProjections.activity) {
                let page = try $0.page(ActivityItem.self, in: AccountActivityProjection.activity, prefix: prefix, request)
                return ActivityPage(items: page.entries.map(\.value), next: page.next)
            }
        } catch {
            throw .readModel(error)
        }
    }
}
