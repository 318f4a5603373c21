import Foundation
import LMDB

/// Checks the whole log in one snapshot: every record's checksum and layout, positions gap-free
/// from 1, stream versions gap-free from 0, and every index entry consistent with the log in
/// both directions (each event is indexed; each index entry points at a matching event).
struct LogVerifier {
    let databases: LogDatabases
    let txn: Transaction
    private(set) var report = VerifyReport()
    /// Per stream: last version seen and its position.
    private var streamHeads: [String: StreamHead] = [:]
    private var expectedEntries: [String: Int] = ["streams": 0, "categories": 0, "types": 0, "tags": 0]
    /// Positions whose record failed its checks; index entries pointing there are explained.
    private var unreadable: Set<UInt64> = []
    /// Where the walk is, named in the finding if a read fails there.
    private var pass = "events"

    init(databases: LogDatabases, txn: Transaction) {
        self.databases = databases
        self.txn = txn
    }

    /// Runs every pass. A read that fails (a page LMDB cannot find, a damaged page) is a finding,
    /// not an end: it is reported with where it stopped, and the walk ends there because LMDB
    /// refuses every further read in a transaction that failed one.
    mutating func run() -> VerifyReport {
        do {
            try checkRecords()
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
    }

    private mutating func checkIndexes(of record: RecordView, at position: UInt64) throws {
        let streamID = record.streamID
        let version = record.streamVersion
        let expectedVersion = streamHeads[streamID].map { $0.version + 1 } ?? 0
        if version != expectedVersion, try !versionsLieInDamagedRecords(streamID, expectedVersion..<max(version, expectedVersion)) {
            report.report("stream \(streamID): position \(position) has version \(version), expected \(expectedVersion)")
        }
        streamHeads[streamID] = StreamHead(version: version, position: position)
        let indexed = try txn.get(databases.streams, IndexKeys.streamVersion(streamID, version))
        if indexed.map({ IndexKeys.uint64($0) }) != position {
            report.report("streams: \(streamID)@\(version) does not point at position \(position)")
        }
        try expectEntry("categories", databases.categories, StreamName.category(of: streamID), position)
        try expectEntry("types", databases.types, record.type, position)
        for tag in record.tags { try expectEntry("tags", databases.tags, tag, position) }
        expectedEntries["streams", default: 0] += 1
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
    public func verify() throws(EventLogError) -> VerifyReport {
        try LogDatabases.mapStorage {
            try environment.read { txn in
                var verifier = LogVerifier(databases: databases, txn: txn)
                return verifier.run()
            }
        }
    }
}
