import Foundation

extension NeighbourhoodQueries {
    /// Up to `limit` items of `table` under `prefix` after `cursor`, in key order (newest first),
    /// each made by `resolve` from its stored value in the same snapshot; nil skips an entry.
    ///
    /// One more than asked tells whether a next page exists, so the last page has no `next` and
    /// a client never fetches an empty page, unless the scan stopped at
    /// `entriesScannedPerRequestMax` (see there).
    func page<Value: ReadModelValue, Item: Sendable & Equatable>(
        _ type: Value.Type, in table: String, prefix: String, limit: Int?, cursor: String?,
        resolve: (ReadModelReader, Value) throws -> Item?
    ) throws(ListQueryError) -> NeighbourhoodPage<Item> {
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        let limit = request.items
        do {
            return try engine.read(NeighbourhoodProjections.reports) { model in
                var found: [(key: String, item: Item)] = []
                var after = request.after, scanned = 0, exhausted = false
                while !exhausted, found.count <= limit, scanned < Self.entriesScannedPerRequestMax {
                    let chunk = try model.entries(Value.self, in: table, prefix: prefix, after: after, limit: limit + 1)
                    exhausted = chunk.count <= limit
                    for entry in chunk where found.count <= limit {
                        scanned += 1
                        after = entry.key
                        if let item = try resolve(model, entry.value) { found.append((entry.key, item)) }
                    }
                }
                if found.count > limit {
                    return NeighbourhoodPage(items: found.prefix(limit).map(\.item), next: PageCursor.encode(found[limit - 1].key))
                }
                return NeighbourhoodPage(items: found.map(\.item), next: exhausted ? nil : after.map(PageCursor.encode))
            }
        } catch {
            throw .readModel(error)
        }
    }
}
