import Foundation
import LMDB

/// Checks the whole log in one snapshot: every record's checksum and layout, positions gap-free
/// from 1, stream versions gap-free from 0, and every index entry consistent with the log in
/// both directions (each event is indexed; each index entry points at a matching event), and
/// the hash chain: recomputed from the first record, checked against every stored hash and
/// against published heads.
struct LogVerifier {
    let databases: LogDatabases
    let txn: Transaction
    private(set) var report = VerifyReport()
    /// Published heads not yet reached by the walk, by position.
    private var pendingHeads: [ChainHead]
    /// The chain recomputed from genesis over the records walked so far: what proves the log.
    private var recomputedHash = ChainHash.genesis
    /// The last position walked and the hash stored for it.
    private var storedBefore: (position: UInt64, hash: [UInt8]?) = (0, ChainHash.genesis)
    /// The greatest published head that matched, which narrows where a later mismatch begins.
    private var lastMatchingHead: UInt64?
    private var storedChain: ChainReader?
    /// Per stream: last version seen and its position.
    private var streamHeads: [String: StreamHead] = [:]
    private var expectedEntries: [String: Int] = ["streams": 0, "categories": 0, "types": 0, "tags": 0]
    /// The first position of the index tail: its events have no `streams`, `categories`,
    /// `types` or `tags` entries yet, and must have none.
    private var tailStart = UInt64.max
    /// Positions whose record failed its checks; index entries pointing there are explained.
    private var unreadable: Set<UInt64> = []
    /// Where the walk is, named in the finding if a read fails there.
    private var pass = "events"

    init(databases: LogDatabases, txn: Transaction, heads: [ChainHead] = []) {
        self.databases = databases
        self.txn = txn
        pendingHeads = heads.sorted { $0.position < $1.position }
        storedChain = databases.chain.map { ChainReader(chain: $0, txn: txn) }
        if databases.chain != nil { report.chainHead = ChainHead(position: 0, hash: ChainHash.genesis) }
    }

    /// Runs every pass. A read that fails (a page LMDB cannot find, a damaged page) is a finding,
    /// not an end: it is reported with where it stopped, and the walk ends there because LMDB
    /// refuses every further read in a transaction that failed one.
    mutating func run() -> VerifyReport {
        do {
            if pendingHeads.first?.position == 0 { checkHeads(at: 0) }
            pass = "meta"
            tailStart = try IndexTail.storedStart(databases, txn) ?? .max
            pass = "events"
            try checkRecords()
            try checkChainCount()
            for name in ["streams", "categories", "types", "tags"] {
                pass = "\(name) index"
                try checkCount(name)
            }
            pass = "heads"
            try checkHeads()
            pass = "commands"
            try checkCommands()
        } catch {
            report.report("\(pass): reading failed, \(EventLogError(error)); verify stopped here, so what follows was not checked")
        }
        return report
    }

    private mutating func checkRecords() throws {
        try txn.withCursor(databases.events) { cursor in
            var expected: UInt64 = 1
            var entry = try cursor.first()
            while let current = entry {
                try checkRecord(current, expected: &expected)
                pass = "events after position \(report.lastPosition)"
                entry = try cursor.next()
            }
        }
    }

    private mutating func checkRecord(_ current: Cursor.Entry, expected: inout UInt64) throws {
        guard current.key.count == 8 else {
            report.report("events: key of \(current.key.count) bytes is not a position")
            return
        }
        let position = IndexKeys.uint64(current.key)
        if position != expected {
            report.report("positions: expected \(expected), found \(position)")
        }
        expected = position + 1
        report.lastPosition = position
        report.eventsChecked += 1
        do {
            let record = try RecordView(current.value, position: position)
            try checkIndexes(of: record, at: position)
        } catch let error as EventLogError {
            unreadable.insert(position)
            report.report(error.description)
        }
        try checkChain(current.value, at: position)
    }

    /// Extends the recomputed chain by `record` and checks it against the hash stored at
    /// `position`. The stored hash is compared with the record hashed after the *stored* hash
    /// before it, so a rewritten event is named where it is, once, not at every later position
    /// (whose stored hashes still follow each other). Published heads at `position` are checked
    /// against the recomputed chain, which depends on nothing stored but the records.
    private mutating func checkChain(_ record: UnsafeRawBufferPointer, at position: UInt64) throws {
        guard storedChain != nil else { return }
        let stored = try storedChain!.hash(at: position)
        let previousStored = storedBefore.position == position - 1 ? storedBefore.hash : try storedChain!.hash(at: position - 1)
        let fromGenesis = ChainHash.after(recomputedHash, record: record)
        // Until the stored chain and the recomputed one part, one hash serves both checks.
        let expected = previousStored == recomputedHash ? fromGenesis : previousStored.map { ChainHash.after($0, record: record) }
        recomputedHash = fromGenesis
        storedBefore = (position, stored)
        report.chainHead = ChainHead(position: position, hash: fromGenesis)
        if let stored {
            // A damaged record is reported already; its hash cannot match either.
            if let expected, stored != expected {
                report.noteChainDivergence(at: position)
            }
            if let expected, stored != expected, !unreadable.contains(position) {
                report.report("chain: position \(position) does not hash to its stored chain hash: the event there (or the hash before it) was rewritten after it was appended")
            }
        } else {
            report.report("chain: no hash stored for position \(position)")
        }
        checkHeads(at: position)
    }

    /// Compares every published head at `position` with the recomputed chain there.
    private mutating func checkHeads(at position: UInt64) {
        while let head = pendingHeads.first, head.position == position {
            pendingHeads.removeFirst()
            report.headsChecked += 1
            if head.hash == recomputedHash {
                lastMatchingHead = position
                continue
            }
            let since = lastMatchingHead.map { "after position \($0), whose published head matches," } ?? "at or before it"
            var problem = "head \(position): the log up to \(position) is not the published one (its hash there is \(ChainHead.hex(recomputedHash)), the published \(head.hashHex)); it was changed \(since) and every hash after the change was recomputed"
            if let first = report.firstDivergingPosition, first <= position {
                problem = "head \(position): the log up to \(position) is not the published one (its hash there is \(ChainHead.hex(recomputedHash)), the published \(head.hashHex)); the first diverging position is \(first)"
            }
            report.noteChainDivergence(at: report.firstDivergingPosition.map { min($0, position) } ?? position)
            report.report(problem)
        }
    }

    /// The chain's entries follow each other without gap or overlap, each of whole hashes, and
    /// hold one hash per event (the record pass checked each event's); then reports published
    /// heads the log has not reached.
    private mutating func checkChainCount() throws {
        guard let chain = databases.chain else {
            report.report("chain: the log was written before the hash chain (format \(LogDatabases.formatVersionBeforeChain)); open it writable once (start the server on it, or run logbook-admin migrate) to compute the chain")
            return
        }
        var hashes = 0
        try txn.withCursor(chain) { cursor in
            var next: UInt64 = 1
            var entry = try cursor.first()
            while let current = entry {
                let first = current.key.count == 8 ? IndexKeys.uint64(current.key) : 0
                if first != next || current.value.isEmpty || current.value.count % ChainHash.bytes != 0 {
                    report.report("chain: entry at position \(first) (\(current.value.count) bytes) does not follow the one before, which ends at \(next - 1)")
                }
                hashes += current.value.count / ChainHash.bytes
                next = first + UInt64(current.value.count / ChainHash.bytes)
                entry = try cursor.next()
            }
        }
        report.chainHashesChecked = hashes
        if hashes != report.eventsChecked {
            report.report("chain: \(hashes) hashes for \(report.eventsChecked) events")
        }
        for head in pendingHeads {
            report.noteChainDivergence(at: report.lastPosition + 1)
            report.report("head \(head.position): the log ends at position \(report.lastPosition), before the published head")
        }
        pendingHeads.removeAll()
    }

    private mutating func checkIndexes(of record: RecordView, at position: UInt64) throws {
        let streamID = record.streamID
        let version = record.streamVersion
        let expectedVersion = streamHeads[streamID].map { $0.version + 1 } ?? 0
        if version != expectedVersion, try !versionsLieInDamagedRecords(streamID, expectedVersion..<max(version, expectedVersion)) {
            report.report("stream \(streamID): position \(position) has version \(version), expected \(expectedVersion)")
        }
        streamHeads[streamID] = StreamHead(version: version, position: position)
        if position < tailStart {
            let indexed = try txn.get(databases.streams, IndexKeys.streamVersion(streamID, version))
            if indexed.map({ IndexKeys.uint64($0) }) != position {
                report.report("streams: \(streamID)@\(version) does not point at position \(position)")
            }
            try expectEntry("categories", databases.categories, StreamName.category(of: streamID), position)
            try expectEntry("types", databases.types, record.type, position)
            for tag in record.tags { try expectEntry("tags", databases.tags, tag, position) }
            expectedEntries["streams", default: 0] += 1
        }
        if let range = try txn.get(databases.commands, IndexKeys.command(record.commandID)),
           IndexKeys.uint64(range) <= position, position <= IndexKeys.uint64(range, at: 8) {
            return
        }
        report.report("commands: command \(record.commandID) does not cover position \(position)")
    }

    /// A version gap is explained when the streams index places the missing versions in records
    /// already reported as damaged.
    private func versionsLieInDamagedRecords(_ streamID: String, _ versions: Range<UInt64>) throws -> Bool {
        guard !versions.isEmpty, !unreadable.isEmpty else { return false }
        for version in versions {
            guard let position = try txn.get(databases.streams, IndexKeys.streamVersion(streamID, version)),
                  unreadable.contains(IndexKeys.uint64(position)) else { return false }
        }
        return true
    }

    private mutating func expectEntry(_ name: String, _ index: Database, _ key: String, _ position: UInt64) throws {
        expectedEntries[name, default: 0] += 1
        if try txn.get(index, IndexKeys.namePosition(key, position)) == nil {
            report.report("\(name): no entry for \(key.debugDescription) at position \(position)")
        }
    }

    /// Every expected entry exists; equal counts then mean there is no stray entry either. When
    /// the counts differ, the index is walked to name each stray entry; entries pointing at a
    /// record already reported as damaged are explained by that report.
    private mutating func checkCount(_ name: String) throws {
        let index = databases.indexes.first { $0.name == name }!.database
        let entries = try txn.statistics(index).entries
        report.indexEntriesChecked[name] = entries
        let expected = expectedEntries[name] ?? 0
        guard entries != expected else { return }
        var explained = 0
        try txn.withCursor(index) { cursor in
            var entry = try cursor.first()
            while let current = entry {
                if try checkEntry(name, current) { explained += 1 }
                entry = try cursor.next()
            }
        }
        if entries - explained < expected && explained > 0 {
            report.report("\(name): \(entries) entries, the log implies \(expected)")
        }
    }

    /// Reports `current` of index `name` unless the log explains it; true when it points at a
    /// record already reported as damaged.
    private mutating func checkEntry(_ name: String, _ current: Cursor.Entry) throws -> Bool {
        guard current.key.count > 9 else {
            report.report("\(name): malformed key of \(current.key.count) bytes")
            return false
        }
        let key = String(decoding: UnsafeRawBufferPointer(rebasing: current.key[..<(current.key.count - 9)]), as: UTF8.self)
        let trailing = IndexKeys.trailingPosition(current.key)
        let position = name == "streams" ? (current.value.count == 8 ? IndexKeys.uint64(current.value) : 0) : trailing
        if unreadable.contains(position) { return true }
        if position >= tailStart {
            report.report("\(name): entry \(key.debugDescription) for position \(position), which is in the index tail (from \(tailStart))")
            return false
        }
        if try !indexEntry(name, key: key, trailing: trailing, matchesRecordAt: position) {
            report.report("\(name): stray entry \(key.debugDescription) at \(name == "streams" ? "version \(trailing) → position \(position)" : "position \(position)")")
        }
        return false
    }

    private func indexEntry(_ name: String, key: String, trailing: UInt64, matchesRecordAt position: UInt64) throws -> Bool {
        guard let bytes = try txn.get(databases.events, IndexKeys.position(position)),
              let record = try? RecordView(bytes, position: position) else { return false }
        switch name {
        case "streams": return record.streamID == key && record.streamVersion == trailing
        case "categories": return StreamName.category(of: record.streamID) == key
        case "types": return record.type == key
        default: return record.tags.contains(key)
        }
    }

    private mutating func checkHeads() throws {
        report.indexEntriesChecked["heads"] = try txn.statistics(databases.heads).entries
        if report.indexEntriesChecked["heads"] != streamHeads.count {
            report.report("heads: \(report.indexEntriesChecked["heads"] ?? 0) entries for \(streamHeads.count) streams")
        }
        for (streamID, head) in streamHeads.sorted(by: { $0.value.position < $1.value.position }) {
            let stored = StreamHead(try txn.get(databases.heads, IndexKeys.head(streamID)))
            if stored != head {
                report.report("heads: \(streamID) records \(stored.map { "\($0.version)@\($0.position)" } ?? "nothing"), the log says \(head.version)@\(head.position)")
            }
        }
    }

    /// Each command entry spans positions whose events carry that command id; an entry of no
    /// events (a command that decided nothing) lies within the log.
    private mutating func checkCommands() throws {
        var checked = 0
        try txn.withCursor(databases.commands) { cursor in
            var entry = try cursor.first()
            while let current = entry {
                checked += 1
                try checkCommand(current)
                entry = try cursor.next()
            }
        }
        report.indexEntriesChecked["commands"] = checked
    }

    private mutating func checkCommand(_ current: Cursor.Entry) throws {
        let commandID = current.key.count == 16 ? UUID(uuid: current.key.loadUnaligned(as: uuid_t.self)) : nil
        guard let commandID, let entry = CommandEntry(current.value) else {
            report.report("commands: malformed entry (\(current.key.count)-byte key, \(current.value.count)-byte value)")
            return
        }
        if entry.isEmpty {
            if entry.lastPosition > report.lastPosition {
                report.report("commands: entry \(commandID.uuidString) of no events lies past the log's end, at \(entry.lastPosition)")
            }
            return
        }
        for position in Set([entry.firstPosition, entry.lastPosition]) {
            let bytes = try txn.get(databases.events, IndexKeys.position(position))
            // A damaged record was reported by the record pass; only judge readable ones.
            if let bytes, (try? RecordView(bytes, position: position)) == nil { continue }
            let owner = try bytes.map { try RecordView($0, position: position).commandID }
            if owner != commandID {
                report.report("commands: entry \(commandID.uuidString) points at position \(position), which it did not write")
            }
        }
    }
}

extension LMDBEventStore {
    /// Checks the whole log; see `VerifyReport`. Safe while another process appends: it reads one
    /// consistent snapshot.
    /// Each of `heads` (published earlier by `chainHead()`) must match the chain recomputed from
    /// the records: the log up to its position is then exactly the one published, however much
    /// it has grown since.
    public func verify(heads: [ChainHead] = []) throws(EventLogError) -> VerifyReport {
        try LogDatabases.mapStorage {
            try environment.read { txn in
                var verifier = LogVerifier(databases: databases, txn: txn, heads: heads)
                return verifier.run()
            }
        }
    }
}
