import Foundation

extension WorkplaceQueries {
    /// Up to `limit` values of `table` under `prefix` after `cursor` (newest first: ids, or
    /// positions), each resolved by `resolve` in the same snapshot; a value that resolves to
    /// nothing is skipped (none does: lists and items change in the same transaction). With
    /// `keptByPosition`, what `resolve` made is kept by the position in the entry's key, and
    /// taken from there by the next reader (`ProjectionEngine.keptItems`): for items that never
    /// change once their event made them, in a list keyed by `ReadModelKeys.newestFirst` (a page
    /// with another key is made as without it).
    func newestFirst<Stored: ReadModelValue, Item: Sendable & Equatable>(
        _ stored: Stored.Type, in table: String, prefix: String, limit: Int?, cursor: String?, keptByPosition: Bool = false,
        resolve: (ReadModelReader, Stored) throws -> Item?
    ) throws(ListQueryError) -> ItemPage<Item> {
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            return try engine.read(WorkplaceProjections.organisations) { model in
                let page = try model.page(Stored.self, in: table, prefix: prefix, request)
                let entries = Array(page.entries)
                let positions = keptByPosition ? ReadModelKeys.positions(ofNewestFirst: entries.map { $0.key }, prefix: prefix) : nil
                let items = try positions.map { positions in try engine.keptItems(at: positions) { try resolve(model, entries[$0].value) } }
                    ?? entries.map { try resolve(model, $0.value) }
                return ItemPage(items: items.compactMap { $0 }, next: page.next)
            }
        } catch {
            throw .readModel(error)
        }
    }

    /// Up to `limit` directory entries after `cursor` that `matches`, in key order (by folded
    /// name, then id), reading at most `entriesScannedPerRequestMax` entries (`filteredPage`).
    func directoryPage(
        limit: Int?, cursor: String?, matches: (OrganisationDirectoryEntry) -> Bool
    ) throws(ListQueryError) -> ItemPage<OrganisationDirectoryEntry> {
        let limit = try ListPage.items(limit)
        var after: String?
        if let cursor {
            guard let key = Self.directoryKey(of: cursor) else { throw .malformedCursor }
            after = key
        }
        do {
            return try engine.read(WorkplaceProjections.organisations) { model in
                // A search skips most entries: read in chunks of at least 128, not one page's worth.
                try model.filteredPage(
                    OrganisationDirectoryEntry.self, in: Table.directory, after: after, limit: limit,
                    scannedMax: Self.entriesScannedPerRequestMax, chunkMin: 128) { _, entry in matches(entry) ? entry : nil }
            }
        } catch {
            throw .readModel(error)
        }
    }

    /// The directory key in `cursor`: base64url of `<name>\0<id>` (both non-empty, UTF-8) as
    /// `PageCursor.encode` made it. Any such key is a place to continue from, wherever it sorts;
    /// anything else was not issued here.
    static func directoryKey(of cursor: String) -> String? {
        guard let data = PageCursor.bytes(of: cursor), let separator = data.lastIndex(of: 0),
              separator > data.startIndex, separator < data.index(before: data.endIndex),
              let key = String(data: data, encoding: .utf8) else { return nil }
        return key
    }
}
