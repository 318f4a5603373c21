import Foundation
import EventLog
import PostgresNIO

extension PostgresEventStore {
    var pageBytesMax: Int { options.limits.readPageBytesMax }

    public func readAll(from position: UInt64, direction: ReadDirection = .forward, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        try options.limits.validatePage(limit)
        return try await events(PostgresQueries.scan(
            where: nil, name: nil, from: position, direction: direction, limit: limit, pageBytesMax: pageBytesMax
        ))
    }

    /// Page after page of this store's `readPageEventsMax` (one query at a time on its
    /// connection), until `limit` or a short page.
    public func readBatch(from position: UInt64, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        let pageEvents = options.limits.readPageEventsMax
        var batch = try await readAll(from: position, direction: .forward, limit: min(limit, pageEvents))
        while batch.count < limit, let last = batch.last {
            let wanted = min(limit - batch.count, pageEvents)
            let page = try await readAll(from: last.position + 1, direction: .forward, limit: wanted)
            batch += page
            if page.count < wanted { break }
        }
        return batch
    }

    /// One query for all of them, put back in the order asked.
    public func events(at positions: [UInt64]) async throws(EventLogError) -> [RecordedEvent] {
        guard !positions.isEmpty else { return [] }
        try options.limits.validatePage(positions.count)
        let found = try await events(PostgresQueries.positions(positions))
        let byPosition = Dictionary(found.map { ($0.position, $0) }, uniquingKeysWith: { first, _ in first })
        return positions.compactMap { byPosition[$0] }
    }

    public func readStream(
        _ streamID: String, from version: UInt64 = 0, direction: ReadDirection = .forward, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent] {
        try await named(streamID, bytesMax: options.limits.streamIDBytesMax, limit: limit) {
            PostgresQueries.scan(where: "stream_id", name: streamID, from: version, direction: direction, limit: limit,
                                 pageBytesMax: pageBytesMax, orderColumn: "stream_version")
        }
    }

    public func readCategory(
        _ category: String, from position: UInt64 = 1, direction: ReadDirection = .forward, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent] {
        // A category is a stream id's prefix: no longer than one.
        try await named(category, bytesMax: options.limits.streamIDBytesMax, limit: limit) {
            PostgresQueries.scan(where: "category", name: category, from: position, direction: direction, limit: limit, pageBytesMax: pageBytesMax)
        }
    }

    public func readTag(
        _ tag: String, from position: UInt64 = 1, direction: ReadDirection = .forward, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent] {
        try await named(tag, bytesMax: options.limits.tagBytesMax, limit: limit) {
            PostgresQueries.tagScan(tag, from: position, direction: direction, limit: limit, pageBytesMax: pageBytesMax)
        }
    }

    public func readType(
        _ type: String, from position: UInt64 = 1, direction: ReadDirection = .forward, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent] {
        try await named(type, bytesMax: options.limits.typeBytesMax, limit: limit) {
            PostgresQueries.scan(where: "type", name: type, from: position, direction: direction, limit: limit, pageBytesMax: pageBytesMax)
        }
    }

    /// A read by `name` (a stream, category, tag or type): a name the log could not hold reads as
    /// nothing, as LMDB's do, without asking the database.
    private func named(
        _ name: String, bytesMax: Int, limit: Int, _ query: () -> PostgresQuery
    ) async throws(EventLogError) -> [RecordedEvent] {
        try options.limits.validatePage(limit)
        guard Self.isStorable(name, bytesMax: bytesMax) else { return [] }
        return try await events(query())
    }

    public func read(matching query: EventQuery, after position: UInt64 = 0, limit: Int) async throws(EventLogError) -> QueryResult {
        try options.limits.validatePage(limit)
        // No stored event carries a name the log refuses to write (NUL, which PostgreSQL's text
        // cannot even hold), so an item naming one matches nothing.
        let hasNUL = { (name: String) in name.utf8.contains(0) }
        let storable = EventQuery(items: query.items.compactMap { item in
            let types = item.types.filter { !hasNUL($0) }
            if item.tags.contains(where: hasNUL) || (!item.types.isEmpty && types.isEmpty) { return nil }
            return EventQuery.Item(types: types, tags: item.tags)
        })
        // Positions are committed in order, so every event up to the head read first is visible
        // to the query that follows it.
        let head = try await headPosition()
        let events = try await events(PostgresQueries.matching(storable, after: position, upTo: head, limit: limit))
        return QueryResult(events: events, checkedUpTo: head)
    }

    public func appendResult(ofCommand commandID: UUID) async throws(EventLogError) -> AppendResult? {
        try await database {
            let rows = try await client.query(
                "SELECT first_position, last_position, fingerprint FROM logbook_commands WHERE command_id = \(commandID)",
                logger: logger
            )
            for try await (first, last, fingerprint) in rows.decode((Int64, Int64, ByteBuffer).self) {
                return CommandEntry(
                    firstPosition: UInt64(first), lastPosition: UInt64(last),
                    fingerprint: fingerprint.readableBytes == 0 ? nil : Data(buffer: fingerprint)
                ).replay
            }
            return nil
        }
    }

    public func streamVersion(_ streamID: String) async throws(EventLogError) -> UInt64? {
        guard Self.isStorable(streamID, bytesMax: options.limits.streamIDBytesMax) else { return nil }
        return try await database {
            let rows = try await client.query(
                "SELECT max(stream_version) FROM logbook_events WHERE stream_id = \(streamID)", logger: logger
            )
            for try await (version) in rows.decode(Int64?.self) { return version.map(UInt64.init) }
            return nil
        }
    }

    /// The event at `position`, or nil past the head.
    public func event(at position: UInt64) async throws(EventLogError) -> RecordedEvent? {
        try await readAll(from: position, limit: 1).first.flatMap { $0.position == position ? $0 : nil }
    }

    private func events(_ query: PostgresQuery) async throws(EventLogError) -> [RecordedEvent] {
        try await database {
            var events: [RecordedEvent] = []
            for try await (position, record) in try await client.query(query, logger: logger).decode((Int64, ByteBuffer).self) {
                events.append(try PostgresQueries.decode(position: position, record: record))
            }
            return events
        }
    }

    /// Whether the log could hold `name`: not over its limit and without NUL. Reads of any other
    /// name answer nothing, as LMDB's do, without asking the database.
    static func isStorable(_ name: String, bytesMax: Int) -> Bool {
        name.utf8.count <= bytesMax && !name.utf8.contains(0)
    }
}
