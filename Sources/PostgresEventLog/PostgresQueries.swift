import Foundation
import EventLog
import PostgresNIO

/// The SQL of the log's reads, built with bindings for every value.
enum PostgresQueries {
    /// A read's page: the rows `inner` selects (`position`, `record`, ordered and limited), cut
    /// where their records pass `pageBytesMax`, as LMDB's reads cut them: the first always, then
    /// each while the page stays within the limit. The cut is made in the database, so a page of
    /// big records never crosses the wire.
    static func page(_ inner: String, binds: PostgresBindings, direction: ReadDirection, pageBytesMax: Int) -> PostgresQuery {
        var binds = binds
        binds.append(Int64(pageBytesMax))
        let order = direction == .forward ? "position" : "position DESC"
        return PostgresQuery(unsafeSQL: """
            SELECT position, record FROM (
                SELECT position, record, row_number() OVER w AS n, sum(octet_length(record)) OVER w AS running
                FROM (\(inner)) page WINDOW w AS (ORDER BY \(order) ROWS UNBOUNDED PRECEDING)
            ) sized WHERE n = 1 OR running <= $\(binds.count) ORDER BY \(order)
            """, binds: binds)
    }

    /// Events of the log, of an index's name (`column` = `name`), or of a stream by version.
    static func scan(
        where filter: String?, name: String?, from start: UInt64, direction: ReadDirection, limit: Int, pageBytesMax: Int,
        orderColumn: String = "position"
    ) -> PostgresQuery {
        var binds = PostgresBindings()
        var conditions: [String] = []
        if let filter, let name {
            binds.append(name)
            conditions.append("\(filter) = $\(binds.count)")
        }
        binds.append(Int64(clamping: start))
        conditions.append("\(orderColumn) \(direction == .forward ? ">=" : "<=") $\(binds.count)")
        binds.append(Int64(limit))
        let inner = """
            SELECT position, record FROM logbook_events WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(orderColumn) \(direction == .forward ? "" : "DESC") LIMIT $\(binds.count)
            """
        return page(inner, binds: binds, direction: direction, pageBytesMax: pageBytesMax)
    }

    /// The events at `positions` (any order; the caller orders them), through the primary key.
    static func positions(_ positions: [UInt64]) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(positions.map { Int64(clamping: $0) })
        return PostgresQuery(unsafeSQL: "SELECT position, record FROM logbook_events WHERE position = ANY($1)", binds: binds)
    }

    /// Events carrying `tag`, through the tag table's ordered index.
    static func tagScan(_ tag: String, from start: UInt64, direction: ReadDirection, limit: Int, pageBytesMax: Int) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(tag)
        binds.append(Int64(clamping: start))
        binds.append(Int64(limit))
        let inner = """
            SELECT e.position, e.record FROM logbook_tags t JOIN logbook_events e ON e.position = t.position
            WHERE t.tag = $1 AND t.position \(direction == .forward ? ">=" : "<=") $2
            ORDER BY t.position \(direction == .forward ? "" : "DESC") LIMIT $3
            """
        return page(inner, binds: binds, direction: direction, pageBytesMax: pageBytesMax)
    }

    /// Events in (`after`, `upTo`] matching any item of `query`, oldest first. An item with tags
    /// walks the tag table's index of its first tag and joins the others; one with only types
    /// walks the type index; one with neither matches every event.
    static func matching(_ query: EventQuery, after: UInt64, upTo: UInt64, limit: Int) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(Int64(clamping: after))
        binds.append(Int64(clamping: upTo))
        binds.append(Int64(limit))
        let range = "BETWEEN $1 + 1 AND $2"
        var items: [String] = []
        for item in query.items {
            var typeFilter = ""
            if !item.types.isEmpty {
                binds.append(item.types)
                typeFilter = "e.type = ANY($\(binds.count))"
            }
            guard let first = item.tags.first else {
                items.append("""
                    SELECT e.position FROM logbook_events e WHERE e.position \(range)
                    \(typeFilter.isEmpty ? "" : "AND " + typeFilter) ORDER BY e.position LIMIT $3
                    """)
                continue
            }
            binds.append(first)
            var sql = "SELECT t0.position FROM logbook_tags t0"
            let firstBind = binds.count
            for (index, tag) in item.tags.dropFirst().enumerated() {
                binds.append(tag)
                sql += " JOIN logbook_tags t\(index + 1) ON t\(index + 1).position = t0.position AND t\(index + 1).tag = $\(binds.count)"
            }
            if !typeFilter.isEmpty {
                sql += " JOIN logbook_events e ON e.position = t0.position AND \(typeFilter)"
            }
            sql += " WHERE t0.tag = $\(firstBind) AND t0.position \(range) ORDER BY t0.position LIMIT $3"
            items.append(sql)
        }
        guard !items.isEmpty else {  // a query of no items matches nothing, as in LMDB
            return PostgresQuery(unsafeSQL: "SELECT position, record FROM logbook_events WHERE false LIMIT $3", binds: binds)
        }
        let union = items.map { "(\($0))" }.joined(separator: " UNION ")
        return PostgresQuery(unsafeSQL: """
            SELECT position, record FROM logbook_events WHERE position IN (\(union)) ORDER BY position LIMIT $3
            """, binds: binds)
    }

    /// A stored record, checked as LMDB's reads check theirs.
    static func decode(position: Int64, record: ByteBuffer) throws(EventLogError) -> RecordedEvent {
        let position = UInt64(position)
        return try record.withUnsafeReadableBytes { bytes in
            Result { () throws(EventLogError) in try RecordView(bytes, position: position).decode(position: position) }
        }.get()
    }
}
