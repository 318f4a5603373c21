import Foundation

extension AccountQueries {
    /// Items an activity page may hold; SPEC's list limit.
    public static var activityItemsPerPage: ClosedRange<Int> { 1...500 }
    /// Items on an activity page when the client names no limit.
    public static var activityItemsPerPageDefault: Int { 50 }

    /// A page of `userId`'s own events, newest first: up to `limit` items after `cursor` (the
    /// previous page's `next`; nil for the first page).
    public func activity(of userId: String, limit: Int, cursor: String?) throws(ListQueryError) -> ActivityPage {
        let allowed = Self.activityItemsPerPage
        guard allowed.contains(limit) else { throw .limitOutOfRange(limit, allowed: allowed) }
        let prefix = AccountKeys.userPrefix(userId)
        let after = try cursor.map { cursor throws(ListQueryError) in
            guard let key = PageCursor.key(of: cursor, prefix: prefix) else { throw .malformedCursor }
            return key
        }
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
