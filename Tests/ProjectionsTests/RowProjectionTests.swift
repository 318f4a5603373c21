import EventLog
import EventSourcing
import Foundation
import Synchronization
import Testing
@testable import Projections

/// A `RowProjection` double: one row per `test.happened` event, `RecentKey` of its position →
/// the position, in `recent`. It counts the events it made rows for, wherever they were made.
private struct RecentRows: RowProjection {
    /// Per instance, so that tests running at once do not count each other's events.
    final class Count: Sendable { let value = Atomic<Int>(0) }
    let rowsMade = Count()
    /// Throws on the event at this position, when set: a projection with a bug.
    var failingAt: UInt64?
    /// Makes a key longer than LMDB stores for the event at this position, when set.
    var oversizeKeyAt: UInt64?
    /// Keys the row by its position modulo this, when set: later events replace earlier rows.
    var keyModulo: UInt64?

    var name: String { "recentRows" }
    var version: Int { 1 }
    var tables: [String] { ["recent"] }

    func rows(for event: ProjectedEvent, into rows: inout ReadModelRows) throws {
        rowsMade.value.add(1, ordering: .relaxed)
        if event.position == failingAt { throw CancellationError() }
        guard event.type == "test.happened" else { return }
        let key = event.position == oversizeKeyAt ? String(repeating: "k", count: 600) : RecentKey.of(event.position % (keyModulo ?? .max))
        rows.add(event.position, at: key, in: "recent")
    }

    var made: Int { rowsMade.value.load(ordering: .relaxed) }
}

/// Applies `page` to `projection` from its start, as a batch of the engine does, in one transaction.
private func applyOnEngine(
    _ engine: isolated ProjectionEngine<LMDBEventStore>, _ projection: any Projection, _ page: DecodedEvents
) throws {
    let tables = try engine.store.tables(of: projection, generation: 0)
    try engine.store.write { txn in try engine.apply(projection, page, after: 0, into: tables, txn) }
}

@Suite("Rows made ahead") struct RowProjectionTests {
    /// Rows made ahead in three slices: the engine stores them without making any again, and the
    /// table is what each event's rows make, one per `test.happened` event and none for another.
    @Test func rowsMadeAheadInSlicesAreStoredWithoutBeingMadeAgain() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(400)
        try await setup.append(201, type: "test.other")
        try await setup.append(299)
        let page = DecodedEvents(try await setup.log.readAll(from: 1, direction: .forward, limit: 1_000), opening: nil)
        let projection = RecentRows()
        let cpu = await page.decodeAhead([], rowProjections: [projection], slices: 3)
        #expect(cpu > .zero, "counted with the decoding")
        #expect(page.rowsMadeAhead(by: "recentRows")?.rows.count == 699 && page.rowsMadeAhead(by: "another") == nil)
        #expect(projection.made == 900, "each record once, in its slice")
        let engine = try setup.engine([projection])
        _ = try await engine.prepare()
        try await applyOnEngine(engine, projection, page)
        #expect(projection.made == 900, "the engine made no row again")
        let stored = try engine.read(projection) { try $0.entries(UInt64.self, in: "recent", limit: 1_000) }
        let happened = page.records.filter { $0.type == "test.happened" }.map(\.position)
        #expect(stored.map(\.value) == happened.reversed() && stored.allSatisfy { $0.key == RecentKey.of($0.value) })
    }

    /// One failing record in one slice: the projection gets no rows made ahead at all, so the
    /// engine makes them itself, meets the failure and reports it where it happened.
    @Test func aFailingRecordLeavesTheProjectionWithoutRowsMadeAhead() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(300)
        let page = DecodedEvents(try await setup.log.readAll(from: 1, direction: .forward, limit: 1_000), opening: nil)
        _ = await page.decodeAhead([], rowProjections: [RecentRows(failingAt: 250), RecentRows()], slices: 2)
        #expect(page.rowsMadeAhead.count == 1, "only the projection that did not fail")
    }

    /// A page with no record (a read ahead past the log's end) has no slice: no rows are made
    /// ahead for it, and asking for them does not trap.
    @Test func anEmptyPageMakesNoRowsAhead() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(3)
        let page = DecodedEvents(try await setup.log.readAll(from: 4, direction: .forward, limit: 1_000), opening: nil)
        #expect(page.records.isEmpty)
        _ = await page.decodeAhead([], rowProjections: [RecentRows()], slices: 2)
        #expect(page.rowsMadeAhead.isEmpty)
    }

    /// A catch-up long enough to read batches ahead: every event's rows are made once, ahead or
    /// by the engine, and the table is what applying every event would have made.
    @Test(.timeLimit(.minutes(3))) func aCatchUpMakesEachEventsRowsOnceAndEqualsApplyingEachEvent() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let total = 2 * firstBatch + 700
        try await setup.append(total - 100)
        try await setup.append(100, type: "test.other")
        let projection = RecentRows()
        let engine = try setup.engine([projection])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(UInt64(total))
        let stored = try engine.read(RecentRows()) { try $0.entries(UInt64.self, in: "recent", limit: total) }
        #expect(stored.map(\.value) == (1...UInt64(total - 100)).reversed(), "one row per event of the type, newest first")
        #expect(stored.allSatisfy { $0.key == RecentKey.of($0.value) })
        #expect(projection.made == total, "each event's rows made once")
    }

    /// A row LMDB cannot store, in a batch whose rows were made ahead: the engine finds it before
    /// storing anything, makes the batch's rows itself, and the projection is marked failed at
    /// that event; the others go on.
    @Test(.timeLimit(.minutes(3))) func aRowMadeAheadThatLMDBRefusesFailsItsProjectionAtItsEvent() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let total = 2 * firstBatch + 100
        let bad = UInt64(firstBatch + 10)  // in the second batch, the first one read ahead
        try await setup.append(total)
        let projection = RecentRows(oversizeKeyAt: bad)
        let engine = try setup.engine([TypeCounts(), projection])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(UInt64(total))
        let status = try #require(try await engine.status().first { $0.name == "recentRows" })
        #expect(status.state == .failed && status.failure?.position == bad && status.checkpoint == bad - 1)
        #expect(status.failure?.reason.contains("key of 600 bytes") == true, "LMDB's refusal: \(String(describing: status.failure))")
        #expect(try await engine.status().first { $0.name == "typeCounts" }?.state == .serving)
        let batches = try await engine.status().first { $0.name == "typeCounts" }?.checkpoint
        #expect(batches == UInt64(total), "the others went on")
        #expect(projection.made > 2 * firstBatch, "the bad row's batch made ahead, then again by the engine up to the bad row")
    }

    /// Rows are stored in key order, not the events': where two events of one batch write the
    /// same key, the later one's row must still be the one left.
    @Test(.timeLimit(.minutes(3))) func rowsStoredInKeyOrderLeaveTheLaterOfTwoRowsUnderOneKey() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let total = 2 * firstBatch + 300
        try await setup.append(total)
        let projection = RecentRows(keyModulo: 7)
        let engine = try setup.engine([projection])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(UInt64(total))
        let stored = try engine.read(RecentRows()) { try $0.entries(UInt64.self, in: "recent", limit: 100) }
        let latest = (UInt64(total - 6)...UInt64(total)).sorted { $0 % 7 > $1 % 7 }
        #expect(stored.map(\.value) == latest, "each key holds the last event's row")
    }

    /// The storing order: by table, then by key bytes, a key before the longer keys it begins;
    /// rows under one key in the order they were added.
    @Test func theStoringOrderIsByTableThenKeyAndKeepsTheOrderOfRowsUnderOneKey() {
        var rows = ReadModelRows()
        let added: [(table: String, key: String)] = [
            ("b", "k2"), ("a", "k10"), ("b", "k1"), ("a", "k1"), ("a", "k"), ("b", "k1"), ("a", "k10"), ("a", "j9"),
        ]
        for (n, row) in added.enumerated() { rows.add(UInt64(n), at: row.key, in: row.table) }
        #expect(rows.storingOrder() == [7, 4, 3, 1, 6, 2, 5, 0])
    }

    /// Keys are ordered by their first eight bytes as a number before their bytes are compared:
    /// the order is still LMDB's for keys that share those bytes, are shorter than eight bytes,
    /// or differ only past them, and rows joined from several runs keep it.
    @Test func theStoringOrderIsLMDBsAcrossTheEightBytePrefix() {
        let keys = [
            "abcdefgh2", "abcdefgh", "abcdefgh10", "abc", "ab", "abc\u{0}", "abcdefgi", "", "abcdefgh1", "b", "abcdefgh10", "\u{FF}",
        ]
        var first = ReadModelRows(), second = ReadModelRows()
        for (n, key) in keys.enumerated() {
            if n < 5 { first.add(UInt64(n), at: key, in: "t") } else { second.add(UInt64(n), at: key, in: n % 2 == 0 ? "t" : "s") }
        }
        var joined = first
        joined.append(contentsOf: second)
        let expected = keys.indices.sorted { a, b in
            let tableA = a >= 5 && a % 2 == 1 ? "s" : "t", tableB = b >= 5 && b % 2 == 1 ? "s" : "t"
            if tableA != tableB { return tableA < tableB }
            let keyA = Array(keys[a].utf8), keyB = Array(keys[b].utf8)
            if keyA != keyB { return keyA.lexicographicallyPrecedes(keyB) }
            return a < b
        }
        #expect(joined.storingOrder().map(Int.init) == expected)
        #expect(joined.storingOrder().map { joined.table(of: $0) } == expected.map { $0 >= 5 && $0 % 2 == 1 ? "s" : "t" })
    }
}
