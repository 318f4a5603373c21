import Foundation
import LMDB

/// Applies a batch of appends inside one write transaction.
///
/// Each request is checked against the state *including the batch's earlier requests* (the
/// transaction sees its own writes). A request whose condition fails writes nothing and gets its
/// error; its batch-mates are unaffected. A storage error throws from `apply`; `applyIsolated`
/// runs a request in a nested transaction instead, so that its storage error undoes only its
/// own writes and becomes its own outcome.
///
/// Every event's chain hash is written with it, in order, from the hash at `head`: the hash
/// of a request undone alone goes with its other writes, and the next request chains from the
/// hash before it, so the chain has no hole where it was refused.
///
/// With `defersIndexes`, an event's `streams`, `categories`, `types` and `tags` entries go to the
/// index tail (docs/decisions/0008) instead of the B-trees; `finish` writes the tail when told to.
struct BatchApplier {
    let databases: LogDatabases
    let transaction: WriteTransaction
    private let chain: Database
    /// The last position written so far in this transaction.
    private(set) var head: UInt64
    /// The chain hash at `head`.
    private(set) var chainHash: [UInt8]
    let recordedAtMicroseconds: Int64
    /// Every write made so far, in order, for the write-ahead file; nil when nobody keeps one.
    private(set) var puts: [WriteAheadPut]?
    /// The events whose index entries are not in the B-trees yet, this transaction's included.
    private(set) var tail: IndexTail
    /// Whether this batch's events join the tail rather than write their entries at once.
    let defersIndexes: Bool

    init(
        databases: LogDatabases, transaction: WriteTransaction, head: UInt64, chainHash: [UInt8], recordedAtMicroseconds: Int64,
        keepsPuts: Bool = false, tail: IndexTail = IndexTail(startingAt: 0), defersIndexes: Bool = false
    ) {
        // Only a writable store applies batches, and opening one writable migrates it to the chain.
        precondition(databases.chain != nil, "a writable log has the chain database")
        self.databases = databases
        self.transaction = transaction
        chain = databases.chain!
        self.head = head
        self.chainHash = chainHash
        self.recordedAtMicroseconds = recordedAtMicroseconds
        puts = keepsPuts ? [] : nil
        self.tail = tail
        self.defersIndexes = defersIndexes
    }

    /// Applies `request` in a transaction nested in this one. A failure that `failsTheBatch`
    /// accepts is thrown (the whole transaction must stop); any other is `request`'s outcome,
    /// with none of its writes left behind.
    mutating func applyIsolated(
        _ request: AppendRequest, failsTheBatch: (any Error) -> Bool
    ) throws -> Result<AppendResult, EventLogError> {
        let headBefore = head
        let chainHashBefore = chainHash
        let tailBefore = tail
        do {
            return try transaction.nested { child in
                var inner = BatchApplier(
                    databases: databases, transaction: child, head: head, chainHash: chainHash,
                    recordedAtMicroseconds: recordedAtMicroseconds, keepsPuts: puts != nil, tail: tail, defersIndexes: defersIndexes
                )
                let outcome = try inner.apply(request)
                head = inner.head
                chainHash = inner.chainHash
                tail = inner.tail
                // Kept only once the nested transaction holds: an undone request wrote nothing.
                if let innerPuts = inner.puts { puts! += innerPuts }
                return outcome
            }
        } catch {
            head = headBefore
            chainHash = chainHashBefore
            tail = tailBefore
            if failsTheBatch(error) { throw error }
            return .failure(EventLogError(error))
        }
    }

    mutating func apply(_ request: AppendRequest) throws -> Result<AppendResult, EventLogError> {
        let admission = try AppendAdmission.decide(request, command: command) { streamID in
            StreamHead(try transaction.get(databases.heads, IndexKeys.head(streamID)))?.version
        }
        let conditionStart: UInt64?
        switch admission {
        case let .replay(result): return .success(result)
        case let .refused(error): return .failure(error)
        case let .searchCondition(after): conditionStart = after
        }
        if let condition = request.condition, let start = conditionStart,
           let match = try QueryMatcher(databases: databases, transaction: transaction.reader, head: head, tail: tail)
               .matches(of: condition.query, after: start, limit: 1).first {
            return .failure(.appendConditionFailed(
                conflictingPosition: match.position, type: match.type, streamID: match.streamID
            ))
        }
        let firstPosition = head + 1
        // One chain entry per append: its events' hashes, in order (docs/record-format.md).
        var hashes = [UInt8]()
        hashes.reserveCapacity(request.events.count * ChainHash.bytes)
        for event in request.events {
            try write(event, metadata: request.metadata, hashes: &hashes)
        }
        if !hashes.isEmpty {
            try put(.chain, chain, IndexKeys.position(firstPosition), hashes, flags: .append)
        }
        let entry = CommandEntry(firstPosition: firstPosition, lastPosition: head, fingerprint: request.metadata.fingerprint)
        try put(.commands, databases.commands, IndexKeys.command(request.metadata.commandID), entry.encoded, flags: .noOverwrite)
        return .success(AppendResult(firstPosition: firstPosition, lastPosition: head))
    }

    /// The stored entry of `commandID`, or nil when no append carried it.
    private func command(_ commandID: UUID) throws -> CommandEntry? {
        guard let stored = try transaction.get(databases.commands, IndexKeys.command(commandID)) else { return nil }
        guard let entry = CommandEntry(stored) else {
            throw EventLogError.corruptRecord(position: 0, reason: "commands entry of \(commandID) is \(stored.count) malformed bytes")
        }
        return entry
    }

    private mutating func write(_ event: ProposedEvent, metadata: AppendMetadata, hashes: inout [UInt8]) throws {
        let headKey = IndexKeys.head(event.streamID)
        let previous = StreamHead(try transaction.get(databases.heads, headKey))
        let version = previous.map { $0.version + 1 } ?? 0
        let position = head + 1
        let record = RecordEncoder.encode(event, metadata: metadata, at: .init(
            position: position, streamVersion: version, recordedAtMicroseconds: recordedAtMicroseconds
        ))
        // The record must pass the same checks a read applies before it may be written.
        assert(record.withUnsafeBytes { (try? RecordView($0, position: position)) != nil }, "encoder produced an invalid record")
        // MDB_APPEND both asserts that positions only grow and skips the B-tree search.
        try put(.events, databases.events, IndexKeys.position(position), record, flags: .append)
        let hash = ChainHash.after(chainHash, record: record)
        hashes += hash
        try put(.heads, databases.heads, headKey, StreamHead(version: version, position: position).encoded)
        if defersIndexes {
            // The entries are put later, beside other requests' entries: a key LMDB would refuse
            // must fail this request now, as putting it would. Each key is its name, NUL and
            // eight bytes; a category is no longer than its stream id.
            let keyBytes = max(event.streamID.utf8.count, event.type.utf8.count, event.tags.lazy.map(\.utf8.count).max() ?? 0) + 9
            guard transaction.canStore(keyBytes: keyBytes) else { throw LMDBError.keySize(bytes: keyBytes) }
            tail.add(streamID: event.streamID, version: version, type: event.type, tags: event.tags, at: position)
        } else {
            try put(.streams, databases.streams, IndexKeys.streamVersion(event.streamID, version), IndexKeys.position(position))
            let category = StreamName.category(of: event.streamID)
            try put(.categories, databases.categories, IndexKeys.namePosition(category, position), [])
            try put(.types, databases.types, IndexKeys.namePosition(event.type, position), [])
            for tag in event.tags {
                try put(.tags, databases.tags, IndexKeys.namePosition(tag, position), [])
            }
        }
        head = position
        chainHash = hash
    }

    /// Ends the batch's index work: with `flush`, writes every entry of the tail, in key order,
    /// and empties it; then makes `meta` say where the tail starts when `storedStart` (what it
    /// says now) differs. Returns what it says afterwards.
    mutating func finish(flush: Bool, storedStart: UInt64?) throws -> UInt64? {
        if flush, !tail.isEmpty {
            for entry in tail.indexPuts() {
                try put(entry.table, databases.database(entry.table)!, entry.key, entry.value)
            }
            tail = IndexTail(startingAt: head + 1)
        }
        let start = tail.isEmpty ? nil : tail.start
        if start != storedStart {
            try put(.meta, databases.meta, IndexTail.metaKey, IndexTail.metaValue(start: start))
        }
        return start
    }

    /// Writes in the transaction and keeps the write for the write-ahead file.
    private mutating func put(_ table: LogTable, _ database: Database, _ key: [UInt8], _ value: [UInt8], flags: PutFlags = []) throws {
        assert(databases.database(table) == database, "the table names its database")
        try transaction.put(database, key, value, flags: flags)
        puts?.append(WriteAheadPut(table: table, key: key, value: value))
    }
}
