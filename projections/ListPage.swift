/// SPEC's paging, the same for every list: `limit` from 1 to 500 (50 when absent) and an opaque
/// cursor (`PageCursor`).
public enum ListPage {
    /// Items a page may hold.
    public static let itemsPerPage = 1...500
    /// Items on a page when the client names no limit.
    public static let itemsPerPageDefault = 50

    /// A checked request for one page of a list.
    struct Request {
        /// Items the page holds at most.
        let items: Int
        /// The key to page after; nil from the start.
        let after: String?
    }

    /// The items a page of `limit` holds: `itemsPerPageDefault` when nil, refused outside
    /// `itemsPerPage`.
    static func items(_ limit: Int?) throws(ListQueryError) -> Int {
        let items = limit ?? itemsPerPageDefault
        guard itemsPerPage.contains(items) else { throw .limitOutOfRange(items, allowed: itemsPerPage) }
        return items
    }

    /// Checks `limit` and turns `cursor` into the key to page after; a cursor must be one
    /// issued for the list whose keys start with `prefix`.
    static func request(limit: Int?, cursor: String?, prefix: String) throws(ListQueryError) -> Request {
        let items = try items(limit)
        guard let cursor else { return Request(items: items, after: nil) }
        guard let key = PageCursor.key(of: cursor, prefix: prefix) else { throw .malformedCursor }
        return Request(items: items, after: key)
    }
}

extension ReadModelReader {
    /// The entries of `table` under `prefix` that `request` asks for, in key order, and the
    /// cursor of the next page. One entry more than asked tells whether a next page exists, so
    /// the last page has no `next` and a client never fetches an empty page.
    func page<T: ReadModelValue>(
        _ type: T.Type, in table: String, prefix: String, _ request: ListPage.Request
    ) throws -> (entries: ArraySlice<(key: String, value: T)>, next: String?) {
        let entries = try self.entries(type, in: table, prefix: prefix, after: request.after, limit: request.items + 1)
        let page = entries.prefix(request.items)
        return (page, entries.count > request.items ? page.last.map { PageCursor.encode($0.key) } : nil)
    }
}
