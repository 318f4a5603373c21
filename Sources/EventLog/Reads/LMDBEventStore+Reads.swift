import Foundation
import LMDB

extension LMDBEventStore {
    /// Record bytes one page may hold: a page ends early rather than grow past it (it always
    /// holds at least one event), so 1,000 events of 1 MiB never land in memory at once.
    var pageBytesMax: Int { options.limits.readPageBytesMax }

    public func readAll(from position: UInt64, direction: ReadDirection = .forward, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        try options.limits.validatePage(limit)
        return try walk(from: position, direction: direction, limit: limit, bytesMax: pageBytesMax)
    }

    /// The log's events from `position` until `limit` of them or the log's end, in one read
    /// transaction and one array: the projection runner's batch. Read as pages and joined, every
    /// record was copied (each of its references retained and released) once more. Its record
    /// bytes stay within what the pages it stands for could hold (`readPageBytesMax` for every
    /// `readPageEventsMax` events), so large events never make a batch larger than paging did.
    public func readBatch(from position: UInt64, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        guard limit >= 1 else { throw .invalidArgument(field: "limit", reason: "must be at least 1") }
        return try walk(from: position, direction: .forward, limit: limit, bytesMax: pageBytesMax * max(1, limit / options.limits.readPageEventsMax))
    }

    /// One read transaction, one cursor seek per position.
    public func events(at positions: [UInt64]) throws(EventLogError) -> [RecordedEvent] {
        guard !positions.isEmpty else { return [] }
        try options.limits.validatePage(positions.count)
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.withCursor(databases.events) { cursor in
                    var events: [RecordedEvent] = []
                    events.reserveCapacity(positions.count)
                    var strings = RepeatedStrings()
                    for position in positions {
                        guard let entry = try cursor.seek(atOrAfter: IndexKeys.position(position)),
                              IndexKeys.uint64(entry.key) == position else { continue }
                        events.append(try RecordView(entry.value, position: position).decode(position: position, reusing: &strings))
                    }
                    return events
                }
            }
        }
    }

    /// The events from `position` in `direction`, at most `limit` and no more than `bytesMax`
    /// record bytes unless the first alone is larger.
    private func walk(from position: UInt64, direction: ReadDirection, limit: Int, bytesMax: Int) throws(EventLogError) -> [RecordedEvent] {
        try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.withCursor(databases.events) { cursor in
                    var events: [RecordedEvent] = []
                    events.reserveCapacity(min(limit, 1_024))  // a full page without regrowing
                    let start = IndexKeys.position(position)
                    var entry = direction == .forward ? try cursor.seek(atOrAfter: start) : try cursor.seek(atOrBefore: start)
                    var bytes = 0
                    var strings = RepeatedStrings()
                    while let current = entry, events.count < limit, events.isEmpty || bytes + current.value.count <= bytesMax {
                        bytes += current.value.count
                        let position = IndexKeys.uint64(current.key)
                        events.append(try RecordView(current.value, position: position).decode(position: position, reusing: &strings))
                        entry = direction == .forward ? try cursor.next() : try cursor.previous()
                    }
                    return events
                }
            }
        }
    }

    public func readStream(
        _ streamID: String, from version: UInt64 = 0, direction: ReadDirection = .forward, limit: Int
    ) throws(EventLogError) -> [RecordedEvent] {
        try scan(.streams, name: streamID, bytesMax: options.limits.streamIDBytesMax, from: version, direction: direction, limit: limit) { _, value in
            IndexKeys.uint64(value)
        }
    }

    public func readCategory(
        _ category: String, from position: UInt64 = 1, direction: ReadDirection = .forward, limit: Int
    ) throws(EventLogError) -> [RecordedEvent] {
        // A category is a stream id's prefix: no longer than one.
        try scanPositions(.categories, name: category, bytesMax: options.limits.streamIDBytesMax, from: position, direction: direction, limit: limit)
    }

    public func readTag(
        _ tag: String, from position: UInt64 = 1, direction: ReadDirection = .forward, limit: Int
    ) throws(EventLogError) -> [RecordedEvent] {
        try scanPositions(.tags, name: tag, bytesMax: options.limits.tagBytesMax, from: position, direction: direction, limit: limit)
    }

    public func readType(
        _ type: String, from position: UInt64 = 1, direction: ReadDirection = .forward, limit: Int
    ) throws(EventLogError) -> [RecordedEvent] {
        try scanPositions(.types, name: type, bytesMax: options.limits.typeBytesMax, from: position, direction: direction, limit: limit)
    }

    public func read(matching query: EventQuery, after position: UInt64 = 0, limit: Int) throws(EventLogError) -> QueryResult {
        try options.limits.validatePage(limit)
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                let head = try txn.withCursor(databases.events) { try $0.last().map { IndexKeys.uint64($0.key) } } ?? 0
                let matcher = QueryMatcher(databases: databases, transaction: txn, head: head, tail: try indexTail(in: txn))
                return QueryResult(events: try matcher.matches(of: query, after: position, limit: limit), checkedUpTo: head)
            }
        }
    }

    public func appendResult(ofCommand commandID: UUID) throws(EventLogError) -> AppendResult? {
        try LogDatabases.mapStorage {
            try environment.read { txn -> AppendResult? in
                guard let stored = try txn.get(databases.commands, IndexKeys.command(commandID)) else { return nil }
                guard let entry = CommandEntry(stored) else {
                    throw EventLogError.corruptRecord(position: 0, reason: "commands entry of \(commandID) is \(stored.count) malformed bytes")
                }
                return entry.replay
            }
        }
    }

    /// The event at `position`, or nil when there is none.
    public func event(at position: UInt64) throws(EventLogError) -> RecordedEvent? {
        try readAll(from: position, limit: 1).first.flatMap { $0.position == position ? $0 : nil }
    }

    public func streamVersion(_ streamID: String) throws(EventLogError) -> UInt64? {
        // A stream the log would refuse to write has no version; its key may be one LMDB refuses
        // (an empty one: `/v1/admin/streams/%ff`, whose id is no UTF-8, reaches here as "").
        guard !streamID.isEmpty, streamID.utf8.count <= options.limits.streamIDBytesMax else { return nil }
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                StreamHead(try txn.get(databases.heads, IndexKeys.head(streamID)))?.version
            }
        }
    }

    /// Index entries `name NUL position → ∅`.
    private func scanPositions(
        _ index: LogTable, name: String, bytesMax: Int, from position: UInt64, direction: ReadDirection, limit: Int
    ) throws(EventLogError) -> [RecordedEvent] {
        try scan(index, name: name, bytesMax: bytesMax, from: position, direction: direction, limit: limit) { key, _ in
            IndexKeys.trailingPosition(key)
        }
    }

    /// Walks the entries of `name` in `table` from `start`, resolving each to its event: those
    /// of the B-tree, then those of the index tail of the same snapshot, which all come later
    /// (the other way round backwards). `locate` maps a B-tree entry (key, value) to the
    /// event's position. A name longer than `bytesMax`, the most the log writes of its kind, has
    /// no entries (and its key may be one LMDB refuses).
    private func scan(
        _ table: LogTable, name: String, bytesMax: Int, from start: UInt64, direction: ReadDirection, limit: Int,
        locate: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> UInt64
    ) throws(EventLogError) -> [RecordedEvent] {
        try options.limits.validatePage(limit)
        guard name.utf8.count <= bytesMax else { return [] }
        let index = databases.database(table)!
        let prefix = IndexKeys.nameKey(name)
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                let tail = try indexTail(in: txn).entries(in: table, name: name)
                var events: [RecordedEvent] = []
                var pageBytes = 0
                var strings = RepeatedStrings()
                // Adds the event at `position`; false once the page is full (it was not added).
                func take(_ position: UInt64) throws -> Bool {
                    guard events.count < limit else { return false }
                    guard let bytes = try txn.get(databases.events, IndexKeys.position(position)) else {
                        throw EventLogError.corruptRecord(position: position, reason: "\(index.name) index points at a missing event")
                    }
                    pageBytes += bytes.count
                    if !events.isEmpty && pageBytes > pageBytesMax { return false }
                    events.append(try RecordView(bytes, position: position).decode(position: position, reusing: &strings))
                    return true
                }
                func walkTree() throws -> Bool {
                    try txn.withCursor(index) { cursor in
                        let startKey = IndexKeys.namePosition(name, start)
                        var entry = direction == .forward ? try cursor.seek(atOrAfter: startKey) : try cursor.seek(atOrBefore: startKey)
                        while let current = entry, IndexKeys.hasPrefix(current.key, prefix) {
                            guard try take(locate(current.key, current.value)) else { return false }
                            entry = direction == .forward ? try cursor.next() : try cursor.previous()
                        }
                        return true
                    }
                }
                switch direction {
                case .forward:
                    guard try walkTree() else { break }
                    for entry in tail where entry.trailing >= start {
                        guard try take(entry.position) else { break }
                    }
                case .backward:
                    var full = false
                    for entry in tail.reversed() where entry.trailing <= start {
                        guard try take(entry.position) else { full = true; break }
                    }
                    if !full { _ = try walkTree() }
                }
                return events
            }
        }
    }
}
