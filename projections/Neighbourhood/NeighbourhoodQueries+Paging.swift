import Foundation

extension NeighbourhoodQueries {
    /// Up to `limit` items of `table` under `prefix` after `cursor`, in key order (newest first),
    /// each made by `resolve` from its key and stored value in the same snapshot; nil skips an entry.
    /// At most `entriesScannedPerRequestMax` entries are read (`filteredPage`).
    func page<Value: ReadModelValue, Item: Sendable & Equatable>(
        _ type: Value.Type, in table: String, prefix: String, limit: Int?, cursor: String?,
        resolve: (ReadModelReader, _ key: String, Value) throws -> Item?
    ) throws(ListQueryError) -> ItemPage<Item> {
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            return try engine.read(NeighbourhoodProjections.reports) { model in
                try model.filteredPage(
                    type, in: table, prefix: prefix, after: request.after, limit: request.items,
                    scannedMax: Self.entriesScannedPerRequestMax) { key, value in try resolve(model, key, value) }
            }
        } catch {
            throw .readModel(error)
        }
    }
}
