import EventLog
import EventSourcing
import Foundation
import Synchronization
import Testing
@testable import Projections

/// A `RowProjection` double: one row per `test.happened` event, `RecentKey` of its position →
/// the position, in `recent`. Its own `apply` counts the events the engine applied one by one,
/// which are those no batch made rows for ahead.
private struct RecentRows: RowProjection {
    static let appliedOneByOne = Atomic<Int>(0)
    /// Throws on the event at this position, when set: a projection with a bug.
    var failingAt: UInt64?

    var name: String { "recentRows" }
    var version: Int { 1 }
    var tables: [String] { ["recent"] }

    func rows(for event: ProjectedEvent, into rows: inout some ReadModelRowSink) throws {
        if event.position == failingAt { throw CancellationError() }
        guard event.type == "test.happened" else { return }
        try rows.add(event.position, at: RecentKey.of(event.position), in: "recent")
    }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        Self.appliedOneByOne.add(1, ordering: .relaxed)
        var direct = DirectRows(model: model)
        try rows(for: event, into: &direct)
    }
}

@Suite("Rows made ahead") struct RowProjectionTests {
    /// Rows made ahead in three slices: each record has its own rows, in the records' order, and
    /// a record the projection ignores has none.
    @Test func rowsMadeAheadInSlicesAreEachRecordsOwnInOrder() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(400)
        try await setup.append(201, type: "test.other")
        try await setup.append(299)
        let page = DecodedEvents(try await setup.log.readAll(from: 1, direction: .forward, limit: 1_000))
        let cpu = await page.decodeAhead([], rowProjections: [RecentRows()], slices: 3)
        let prepared = try #require(page.preparedRows(of: "recentRows"))
        #expect(cpu > .zero, "counted with the decoding")
        for (index, record) in page.records.enumerated() {
            var keys: [String] = []
            var values: [UInt64] = []
            try prepared.rows.forEach(in: prepared.range(of: index)) { table, key, value in
                #expect(table == "recent")
                keys.append(String(decoding: key, as: UTF8.self))
                values.append(try UInt64.decode(from: value))
            }
            let expected = record.type == "test.happened" ? [record.position] : []
            #expect(values == expected && keys == expected.map(RecentKey.of), "record \(index)")
        }
        #expect(page.preparedRows(of: "another") == nil)
    }

    /// One failing record in one slice: the projection gets no rows made ahead at all, so its
    /// `apply` meets the failure and reports it where it happened.
    @Test func aFailingRecordLeavesTheProjectionWithoutRowsMadeAhead() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(300)
        let page = DecodedEvents(try await setup.log.readAll(from: 1, direction: .forward, limit: 1_000))
        _ = await page.decodeAhead([], rowProjections: [RecentRows(failingAt: 250), RecentRows()], slices: 2)
        #expect(page.preparedRows.count == 1, "only the projection that did not fail")
    }

    /// A catch-up long enough to read batches ahead: the engine puts the rows made ahead instead
    /// of applying those events, and the table is what applying every event would have made.
    @Test(.timeLimit(.minutes(3))) func aCatchUpPutsTheRowsMadeAheadAndEqualsApplyingEachEvent() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let total = 2 * firstBatch + 700
        try await setup.append(total - 100)
        try await setup.append(100, type: "test.other")
        let engine = try setup.engine([RecentRows()])
        _ = try await engine.prepare()
        let before = RecentRows.appliedOneByOne.load(ordering: .relaxed)
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(UInt64(total))
        let stored = try engine.read(RecentRows()) { try $0.entries(UInt64.self, in: "recent", limit: total) }
        #expect(stored.map(\.value) == (1...UInt64(total - 100)).reversed(), "one row per event of the type, newest first")
        #expect(stored.allSatisfy { $0.key == RecentKey.of($0.value) })
        let oneByOne = RecentRows.appliedOneByOne.load(ordering: .relaxed) - before
        #expect(oneByOne >= firstBatch && oneByOne < total, "the first batch one by one, a batch read ahead from its rows")
    }
}
