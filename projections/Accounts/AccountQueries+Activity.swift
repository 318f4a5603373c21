import Foundation

extension AccountQueries {
    /// A page of `userId`'s own events, newest first: up to `limit` items after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func activity(of userId: String, limit: Int, cursor: String?) throws(ListQueryError) -> ActivityPage {
        let prefix = AccountKeys.userPrefix(userId)
        let after = try ListPage.start(limit: limit, cursor: cursor, prefix: prefix)
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
        let next = entries.count > limit ? page.last.map { PageCursor.encode($0.key) } : nil
        return ActivityPage(items: page.map(\.value), next: next)
    }
}
