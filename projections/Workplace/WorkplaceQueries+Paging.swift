import Foundation

extension WorkplaceQueries {
    /// Up to `limit` ids of `table` under `prefix` after `cursor` (newest first), each resolved
    /// by `resolve` in the same snapshot; an id that resolves to nothing is skipped (none does:
    /// lists and items change in the same transaction).
    func newestFirst<Item: Sendable & Equatable>(
        in table: String, prefix: String, limit: Int?, cursor: String?, resolve: (ReadModelReader, String) throws -> Item?
    ) throws(ListQueryError) -> WorkplacePage<Item> {
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            return try engine.read(WorkplaceProjections.organisations) { model in
                let page = try model.page(String.self, in: table, prefix: prefix, request)
                return WorkplacePage(items: try page.entries.compactMap { try resolve(model, $0.value) }, next: page.next)
            }
        } catch {
            throw .readModel(error)
        }
    }

    /// Up to `limit` directory entries after `cursor` that `matches`, in key order (by folded
    /// name, then id). One more than asked tells whether a next page exists, unless the scan
    /// stopped at `entriesScannedPerRequestMax`: then the page is short and `next` continues
    /// after the last entry read.
    func directoryPage(
        limit: Int?, cursor: String?, matches: (OrganisationDirectoryEntry) -> Bool
    ) throws(ListQueryError) -> WorkplacePage<OrganisationDirectoryEntry> {
        let limit = try ListPage.items(limit)
        var after: String?
        if let cursor {
            guard let key = Self.directoryKey(of: cursor) else { throw .malformedCursor }
            after = key
        }
        do {
            return try engine.read(WorkplaceProjections.organisations) { model in
                var found: [(key: String, entry: OrganisationDirectoryEntry)] = []
                var scanned = 0, exhausted = false
                while !exhausted, found.count <= limit, scanned < Self.entriesScannedPerRequestMax {
                    // A search skips most entries: read in chunks of at least 128, not one page's worth.
                    let asked = min(max(limit + 1, 128), Self.entriesScannedPerRequestMax - scanned)
                    let chunk = try model.entries(OrganisationDirectoryEntry.self, in: Table.directory, after: after, limit: asked)
                    exhausted = chunk.count < asked
                    for entry in chunk where found.count <= limit {
                        scanned += 1
                        after = entry.key
                        if matches(entry.value) { found.append((entry.key, entry.value)) }
                    }
                }
                if found.count > limit {
                    return WorkplacePage(items: found.prefix(limit).map(\.entry), next: PageCursor.encode(found[limit - 1].key))
                }
                return WorkplacePage(items: found.map(\.entry), next: exhausted ? nil : after.map(PageCursor.encode))
            }
        } catch {
            throw .readModel(error)
        }
    }

    /// The directory key in `cursor`: base64url of `<name>\0<id>` (both non-empty, UTF-8) as
    /// `PageCursor.encode` made it. Any such key is a place to continue from, wherever it sorts;
    /// anything else was not issued here.
    static func directoryKey(of cursor: String) -> String? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let separator = data.lastIndex(of: 0),
              separator > data.startIndex, separator < data.index(before: data.endIndex),
              let key = String(data: data, encoding: .utf8) else { return nil }
        return key
    }
}
