import Foundation
import EventLog
import Logging
import PostgresNIO

/// One group commit: a batch of appends decided and written inside one transaction that holds
/// the head row's lock.
///
/// The rules are the LMDB applier's (`AppendAdmission`, then the condition), request by request,
/// each against the log *and the batch's earlier requests*. What the database holds is
/// read once per batch where it can be (commands, stream versions); what the batch wrote is
/// kept here, so a request sees its batch-mates without a round trip. A refused request writes
/// nothing, and the batch's rows go to the database in a few multi-row statements at the end.
struct PostgresBatch {
    private let connection: PostgresConnection
    private let logger: Logger
    /// The head committed before this batch: the database answers for positions up to it.
    private let committedHead: UInt64
    /// The last position written so far, in the database or this batch.
    private(set) var head: UInt64
    private var chainHash: [UInt8]
    private let recordedAtMicroseconds: Int64
    private var commands: [UUID: CommandEntry]
    /// Every stream the batch touches or expects, with its version (nil: no stream yet).
    private var versions: [String: UInt64?]
    /// What conditions check against among the batch's own events.
    private var written: [(position: UInt64, type: String, streamID: String, tags: [String])] = []
    private var rows = Rows()

    /// Locks the head, then reads what the requests' checks need in one query.
    static func begin(
        _ requests: [AppendRequest], connection: PostgresConnection, now: Date, logger: Logger
    ) async throws -> PostgresBatch {
        var head: UInt64 = 0
        var chainHash = ChainHash.genesis
        var lastRecordedAt: Int64 = 0
        let locked = try await connection.query(
            "SELECT position, chain_hash, recorded_at_us FROM logbook_head FOR UPDATE", logger: logger
        )
        for try await (position, hash, recordedAt) in locked.decode((Int64, ByteBuffer, Int64).self) {
            head = UInt64(position)
            chainHash = Array(buffer: hash)
            lastRecordedAt = recordedAt
        }
        var commandIDs = Set(requests.map(\.metadata.commandID))
        commandIDs.formUnion(requests.compactMap(\.follows))
        var streamIDs = Set<String>()
        for request in requests {
            streamIDs.formUnion(request.events.map(\.streamID))
            streamIDs.formUnion(request.expectedVersions.keys)
        }
        // Both lookups in one round trip: the commands already stored, and each stream's version.
        var commands: [UUID: CommandEntry] = [:]
        var versions: [String: UInt64?] = [:]
        let known = try await connection.query(
            """
            SELECT c.command_id, c.first_position, c.last_position, c.fingerprint, NULL::text, NULL::int8
            FROM logbook_commands c WHERE c.command_id = ANY(\(Array(commandIDs)))
            UNION ALL
            SELECT NULL::uuid, NULL::int8, NULL::int8, NULL::bytea, s.id,
                   (SELECT e.stream_version FROM logbook_events e WHERE e.stream_id = s.id ORDER BY e.stream_version DESC LIMIT 1)
            FROM unnest(\(Array(streamIDs))::text[]) AS s(id)
            """, logger: logger
        )
        for try await (id, first, last, fingerprint, streamID, version) in known
            .decode((UUID?, Int64?, Int64?, ByteBuffer?, String?, Int64?).self) {
            if let id, let first, let last {
                commands[id] = CommandEntry(
                    firstPosition: UInt64(first), lastPosition: UInt64(last),
                    fingerprint: fingerprint.flatMap { $0.readableBytes == 0 ? nil : Data(buffer: $0) }
                )
            } else if let streamID {
                versions[streamID] = version.map(UInt64.init)
            }
        }
        // As in LMDB: recording times never go back, even when the clock does.
        let recordedAt = max(Int64((now.timeIntervalSince1970 * 1_000_000).rounded(.down)), lastRecordedAt)
        return PostgresBatch(
            connection: connection, logger: logger, committedHead: head, head: head, chainHash: chainHash,
            recordedAtMicroseconds: recordedAt, commands: commands, versions: versions
        )
    }

    private init(
        connection: PostgresConnection, logger: Logger, committedHead: UInt64, head: UInt64, chainHash: [UInt8],
        recordedAtMicroseconds: Int64, commands: [UUID: CommandEntry], versions: [String: UInt64?]
    ) {
        self.connection = connection
        self.logger = logger
        self.committedHead = committedHead
        self.head = head
        self.chainHash = chainHash
        self.recordedAtMicroseconds = recordedAtMicroseconds
        self.commands = commands
        self.versions = versions
    }

    /// Decides `request` against the log and the batch so far; on success its rows join the batch.
    mutating func apply(_ request: AppendRequest) async throws -> Result<AppendResult, EventLogError> {
        let commandID = request.metadata.commandID
        let conditionStart: UInt64?
        switch AppendAdmission.decide(request, command: { commands[$0] }, version: { versions[$0] ?? nil }) {
        case let .replay(result): return .success(result)
        case let .refused(error): return .failure(error)
        case let .searchCondition(after): conditionStart = after
        }
        if let condition = request.condition, let start = conditionStart,
           let conflict = try await firstMatch(of: condition.query, after: start) {
            return .failure(conflict)
        }
        let firstPosition = head + 1
        for event in request.events {
            write(event, metadata: request.metadata)
        }
        let entry = CommandEntry(firstPosition: firstPosition, lastPosition: head, fingerprint: request.metadata.fingerprint)
        commands[commandID] = entry
        rows.commands.append((commandID, entry))
        return .success(AppendResult(firstPosition: firstPosition, lastPosition: head))
    }

    /// The earliest event after `start` matching `query`, in the database, then in the batch.
    private func firstMatch(of query: EventQuery, after start: UInt64) async throws -> EventLogError? {
        if start < committedHead {
            let sql = PostgresQueries.matching(query, after: start, upTo: committedHead, limit: 1)
            for try await (position, record) in try await connection.query(sql, logger: logger).decode((Int64, ByteBuffer).self) {
                let event = try PostgresQueries.decode(position: position, record: record)
                return .appendConditionFailed(conflictingPosition: event.position, type: event.type, streamID: event.streamID)
            }
        }
        if let match = written.first(where: { $0.position > start && query.matches(type: $0.type, tags: $0.tags) }) {
            return .appendConditionFailed(conflictingPosition: match.position, type: match.type, streamID: match.streamID)
        }
        return nil
    }

    private mutating func write(_ event: ProposedEvent, metadata: AppendMetadata) {
        let version = (versions[event.streamID] ?? nil).map { $0 + 1 } ?? 0
        let position = head + 1
        let record = RecordEncoder.encode(event, metadata: metadata, at: .init(
            position: position, streamVersion: version, recordedAtMicroseconds: recordedAtMicroseconds
        ))
        chainHash = ChainHash.after(chainHash, record: record)
        rows.events.append(.init(
            position: position, streamID: event.streamID, streamVersion: version, type: event.type,
            record: record, chainHash: chainHash
        ))
        rows.eventBytes += record.count
        for tag in event.tags { rows.tags.append((tag, position)) }
        written.append((position, event.type, event.streamID, event.tags))
        versions[event.streamID] = version
        head = position
    }

    /// Writes the batch's rows, moves the head and notifies listeners (delivered at commit), in
    /// one statement: each round trip to the database is a good part of a lone append's latency.
    func finish() async throws {
        guard !rows.commands.isEmpty else { return }  // only replays and refusals: nothing to write
        try await rows.write(head: head, chainHash: chainHash, recordedAtMicroseconds: recordedAtMicroseconds,
                             into: connection, logger: logger)
    }

    /// The events of the batch by type, for the commit observer.
    var eventsByType: [String: Int] {
        rows.events.reduce(into: [:]) { $0[$1.type, default: 0] += 1 }
    }
}

/// The rows one batch adds, written with `unnest` so each table costs one statement (or a few,
/// when the records would make one message too big).
private struct Rows {
    typealias Event = PostgresEventRow

    /// Record bytes per insert statement: PostgreSQL refuses messages over 1 GiB.
    static let statementBytesMax = 64 << 20

    var events: [Event] = []
    var eventBytes = 0
    var tags: [(tag: String, position: UInt64)] = []
    var commands: [(id: UUID, entry: CommandEntry)] = []

    /// Inserts the rows, moves the head and notifies, as data-modifying CTEs of one statement.
    /// Events whose records pass `statementBytesMax` together go first in statements of their
    /// own, so no message nears PostgreSQL's 1 GiB limit.
    func write(
        head: UInt64, chainHash: [UInt8], recordedAtMicroseconds: Int64, into connection: PostgresConnection, logger: Logger
    ) async throws {
        var chunks: [ArraySlice<Event>] = []
        var start = 0
        while start < events.count {
            var end = start
            var bytes = 0
            while end < events.count, end == start || bytes + events[end].record.count <= Self.statementBytesMax {
                bytes += events[end].record.count
                end += 1
            }
            chunks.append(events[start..<end])
            start = end
        }
        for chunk in chunks.dropLast() {
            var binds = PostgresBindings()
            let sql = Self.insertEvents(chunk, into: &binds)
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        }
        var binds = PostgresBindings()
        var parts: [String] = []
        if let last = chunks.last { parts.append("events AS (\(Self.insertEvents(last, into: &binds)))") }
        if !tags.isEmpty {
            binds.append(tags.map(\.tag))
            binds.append(tags.map { Int64($0.position) })
            parts.append("tags AS (INSERT INTO logbook_tags (tag, position) SELECT * FROM unnest($\(binds.count - 1)::text[], $\(binds.count)::int8[]))")
        }
        binds.append(commands.map(\.id))
        binds.append(commands.map { Int64($0.entry.firstPosition) })
        binds.append(commands.map { Int64($0.entry.lastPosition) })
        binds.append(commands.map { ByteBuffer(bytes: $0.entry.fingerprint ?? Data()) })
        let c = binds.count
        parts.append("""
            commands AS (INSERT INTO logbook_commands (command_id, first_position, last_position, fingerprint)
                SELECT * FROM unnest($\(c - 3)::uuid[], $\(c - 2)::int8[], $\(c - 1)::int8[], $\(c)::bytea[]))
            """)
        binds.append(Int64(head))
        binds.append(ByteBuffer(bytes: chainHash))
        binds.append(recordedAtMicroseconds)
        let h = binds.count
        parts.append("moved AS (UPDATE logbook_head SET position = $\(h - 2), chain_hash = $\(h - 1), recorded_at_us = $\(h))")
        binds.append(PostgresEventStore.channel)
        binds.append(String(head))
        let sql = "WITH " + parts.joined(separator: ",\n") + "\nSELECT pg_notify($\(binds.count - 1), $\(binds.count))"
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }

    /// An `INSERT` of `chunk` into `logbook_events`, its arrays appended to `binds`.
    private static func insertEvents(_ chunk: ArraySlice<Event>, into binds: inout PostgresBindings) -> String {
        binds.append(chunk.map { Int64($0.position) })
        binds.append(chunk.map(\.streamID))
        binds.append(chunk.map { Int64($0.streamVersion) })
        binds.append(chunk.map { StreamName.category(of: $0.streamID) })
        binds.append(chunk.map(\.type))
        binds.append(chunk.map { ByteBuffer(bytes: $0.record) })
        binds.append(chunk.map { ByteBuffer(bytes: $0.chainHash) })
        let b = binds.count
        return """
            INSERT INTO logbook_events (position, stream_id, stream_version, category, type, record, chain_hash)
            SELECT * FROM unnest($\(b - 6)::int8[], $\(b - 5)::text[], $\(b - 4)::int8[], $\(b - 3)::text[], $\(b - 2)::text[],
                                 $\(b - 1)::bytea[], $\(b)::bytea[])
            """
    }
}
