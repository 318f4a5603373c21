import LMDB

/// Finds events after a position that match an `EventQuery`, reading only candidates: through
/// the tag index for items with tags, the type index for items with only types, and the log
/// itself for items with neither (they match everything). Events of the index tail are
/// candidates through `tail`, after those of the B-trees (all earlier).
struct QueryMatcher {
    let databases: LogDatabases
    let transaction: Transaction
    /// The last position visible to this transaction.
    let head: UInt64
    /// The index tail of this transaction's snapshot.
    let tail: IndexTail

    /// The first `limit` events after `position` matching `query`, oldest first.
    func matches(of query: EventQuery, after position: UInt64, limit: Int) throws -> [RecordedEvent] {
        guard position < head, limit > 0 else { return [] }
        // Each item's matches come sorted, so the first `limit` of the union lie within the
        // first `limit` of each item.
        var merged: [UInt64: RecordedEvent] = [:]
        for item in query.items {
            for match in try matches(of: item, after: position, limit: limit) { merged[match.position] = match }
        }
        return Array(merged.values.sorted { $0.position < $1.position }.prefix(limit))
    }

    private func matches(of item: EventQuery.Item, after position: UInt64, limit: Int) throws -> [RecordedEvent] {
        if let tag = item.tags.first {
            return try scan(.tags, name: tag, after: position, limit: limit, item: item)
        }
        if item.types.isEmpty {
            return try scanLog(after: position, limit: limit)
        }
        var found: [RecordedEvent] = []
        for type in Set(item.types) {
            found += try scan(.types, name: type, after: position, limit: limit, item: item)
        }
        return Array(found.sorted { $0.position < $1.position }.prefix(limit))
    }

    /// Walks `name`'s index entries after `position`, then its tail entries, until `limit` of
    /// them match `item`.
    private func scan(
        _ table: LogTable, name: String, after position: UInt64, limit: Int, item: EventQuery.Item
    ) throws -> [RecordedEvent] {
        let index = databases.database(table)!
        let prefix = IndexKeys.nameKey(name)
        var found: [RecordedEvent] = []
        func consider(_ candidate: UInt64) throws {
            guard let bytes = try transaction.get(databases.events, IndexKeys.position(candidate)) else {
                throw EventLogError.corruptRecord(position: candidate, reason: "\(index.name) index points at a missing event")
            }
            let record = try RecordView(bytes, position: candidate)
            if item.matches(type: record.type, tags: record.tags) { found.append(record.decode(position: candidate)) }
        }
        try transaction.withCursor(index) { cursor in
            var entry = try cursor.seek(atOrAfter: IndexKeys.namePosition(name, position + 1))
            while let current = entry, found.count < limit, IndexKeys.hasPrefix(current.key, prefix) {
                try consider(IndexKeys.trailingPosition(current.key))
                entry = try cursor.next()
            }
        }
        for entry in tail.entries(in: table, name: name) where entry.position > position {
            guard found.count < limit else { break }
            try consider(entry.position)
        }
        return found
    }

    private func scanLog(after position: UInt64, limit: Int) throws -> [RecordedEvent] {
        try transaction.withCursor(databases.events) { cursor in
            var found: [RecordedEvent] = []
            var entry = try cursor.seek(atOrAfter: IndexKeys.position(position + 1))
            while let current = entry, found.count < limit {
                let candidate = IndexKeys.uint64(current.key)
                found.append(try RecordView(current.value, position: candidate).decode(position: candidate))
                entry = try cursor.next()
            }
            return found
        }
    }
}

/// Events matching a query, and the position up to which the log was searched: the `after` of
/// the `AppendCondition` that protects a decision made from these events.
public struct QueryResult: Sendable, Equatable {
    /// Matching events, oldest first.
    public var events: [RecordedEvent]
    /// The log's last position in the snapshot that was searched.
    public var checkedUpTo: UInt64

    public init(events: [RecordedEvent], checkedUpTo: UInt64) {
        self.events = events
        self.checkedUpTo = checkedUpTo
    }
}
