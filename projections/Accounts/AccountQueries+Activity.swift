import Foundation

extension AccountQueries {
    /// A page of `userId`'s own events, newest first: up to `limit` items (50 when nil) after `cursor` (the
    /// previous page's `next`; nil for the first page). The read model lists where the events
    /// are; what each item says is read from the log.
    public func activity(of userId: String, limit: Int?, cursor: String?) async throws(ListQueryError) -> ActivityPage {
        let prefix = AccountKeys.userPrefix(userId)
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            let page = try engine.read(AccountProjections.activity) {
                try $0.page(UInt64.self, in: AccountActivityProjection.activity, prefix: prefix, request)
            }
            let records = try await engine.records(at: page.entries.map(\.value))
            return ActivityPage(items: records.map(ActivityItem.init), next: page.next)
        } catch {
            throw .readModel(error)
        }
    }
}
