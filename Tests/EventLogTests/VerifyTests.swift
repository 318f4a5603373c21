import Foundation
import LMDB
import Testing
@testable import EventLog

@Suite("Verify", .timeLimit(.minutes(3)))
struct VerifyTests {
    private func seeded() async throws -> TestLog {
        let log = try TestLog()
        for index in 0..<10 {
            _ = try await log.store.append(request([event("house-\(index % 3)", tags: ["t:\(index % 2)"])]))
        }
        return log
    }

    /// Changes the stored log behind the store's back, as disk damage or a bug would.
    private func damage(_ log: TestLog, _ body: (WriteTransaction, LogDatabases) throws -> Void) throws {
        try log.store.environment.write { try body($0, log.store.databases) }
    }

    @Test func aHealthyLogVerifies() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let report = try log.store.verify()
        #expect(report.isHealthy && report.problems.isEmpty)
        #expect(report.eventsChecked == 10 && report.lastPosition == 10)
        #expect(report.indexEntriesChecked["tags"] == 10 && report.indexEntriesChecked["heads"] == 3 && report.indexEntriesChecked["commands"] == 10)
    }

    @Test func aCorruptedRecordIsFoundAndReadsRefuseIt() async throws {
        let log = try await seeded()
        defer { log.remove() }
        try damage(log) { txn, databases in
            var bytes = Array(try #require(try txn.get(databases.events, IndexKeys.position(4))))
            bytes[bytes.count - 6] ^= 1
            try txn.put(databases.events, IndexKeys.position(4), bytes)
        }
        let report = try log.store.verify()
        #expect(!report.isHealthy)
        #expect(report.problems == ["corrupt record at position 4: checksum mismatch"])
        #expect(throws: EventLogError.corruptRecord(position: 4, reason: "checksum mismatch")) { try log.store.readAll(from: 1, limit: 10) }
    }

    @Test func aGapInPositionsIsFound() async throws {
        let log = try await seeded()
        defer { log.remove() }
        try damage(log) { txn, databases in _ = try txn.delete(databases.events, IndexKeys.position(5)) }
        let report = try log.store.verify()
        #expect(report.problems.contains("positions: expected 5, found 6"))
        #expect(report.problems.contains { $0.hasPrefix("stream house-1: position 8 has version 2, expected 1") })
    }

    @Test func missingAndStrayIndexEntriesAreFound() async throws {
        let log = try await seeded()
        defer { log.remove() }
        try damage(log) { txn, databases in
            _ = try txn.delete(databases.tags, IndexKeys.namePosition("t:1", 2))
            try txn.put(databases.categories, IndexKeys.namePosition("house", 99), [])
            try txn.put(databases.heads, IndexKeys.head("house-0"), StreamHead(version: 9, position: 9).encoded)
        }
        let report = try log.store.verify()
        #expect(report.problems.contains("tags: no entry for \"t:1\" at position 2"))
        #expect(report.problems.contains("categories: stray entry \"house\" at position 99"))
        #expect(report.problems.contains("heads: house-0 records 9@9, the log says 3@10"))
        #expect(report.problemCount == 3, "\(report.problems)")
    }

    @Test func aStreamEntryPointingAtAnotherStreamsEventIsFound() async throws {
        let log = try await seeded()
        defer { log.remove() }
        try damage(log) { txn, databases in
            var position = [UInt8]()
            position.appendBigEndian(UInt64(2))
            try txn.put(databases.streams, IndexKeys.streamVersion("house-0", 1), position)
        }
        let report = try log.store.verify()
        #expect(report.problems.contains("streams: house-0@1 does not point at position 4"))
        #expect(report.problemCount == 1, "\(report.problems)")
    }

    @Test func aCommandEntryPointingElsewhereIsFound() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let first = try #require(try log.store.event(at: 1))
        try damage(log) { txn, databases in
            var range = [UInt8]()
            range.appendBigEndian(UInt64(2))
            range.appendBigEndian(UInt64(2))
            try txn.put(databases.commands, IndexKeys.command(first.commandID), range)
        }
        let report = try log.store.verify()
        #expect(report.problems.contains("commands: command \(first.commandID) does not cover position 1"))
        #expect(report.problems.contains("commands: entry \(first.commandID.uuidString) points at position 2, which it did not write"))
    }
}
