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

/// One page of a list query: its items, and the cursor of the next page.
public struct ItemPage<Item: Sendable & Equatable>: Sendable, Equatable {
    /// The items on this page.
    public var items: [Item]
    /// The cursor of the next page; nil when this page is the last.
    public var next: String?
}

extension ReadModelReader {
    /// Up to `limit` items of the entries of `table` under `prefix` after the key `after`, in key
    /// order, each made by `resolve` from its key and stored value; nil skips an entry (one the
    /// reader may not see, one a search does not match). At most `scannedMax` entries are read, in
    /// chunks of at least `chunkMin`: a page that stops there is shorter than asked but still
    /// has a `next`, continuing after the last entry read, so every request is bounded and no
    /// item is lost. Otherwise one item more than asked tells whether a next page exists, so the
    /// last page has no `next` and a client never fetches an empty page.
    func filteredPage<Value: ReadModelValue, Item: Sendable & Equatable>(
        _ type: Value.Type, in table: String, prefix: String = "", after start: String?, limit: Int, scannedMax: Int,
        chunkMin: Int = 1, resolve: (_ key: String, Value) throws -> Item?
    ) throws -> ItemPage<Item> {
        var found: [(key: String, item: Item)] = []
        var after = start, scanned = 0, exhausted = false
        while !exhausted, found.count <= limit, scanned < scannedMax {
            let asked = min(max(limit + 1, chunkMin), scannedMax - scanned)
            let chunk = try entries(Value.self, in: table, prefix: prefix, after: after, limit: asked)
            exhausted = chunk.count < asked
            for entry in chunk where found.count <= limit {
                scanned += 1
                after = entry.key
                if let item = try resolve(entry.key, entry.value) { found.append((entry.key, item)) }
            }
        }
        if found.count > limit {
            return ItemPage(items: found.prefix(limit).map(\.item), next: PageCursor.encode(found[limit - 1].key))
        }
        return ItemPage(items: found.map(\.item), next: exhausted ? nil : after.map(PageCursor.encode))
    }

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
