import EventLog
import EventSourcing
import Foundation
import Synchronization
import Testing
@testable import Projections

/// An event type whose decoding is counted.
private enum CountedEvent: DomainEvent {
    case happened

    static let decodes = Atomic<Int>(0)
    /// Calls of `decode`, whatever the record.
    static let attempts = Atomic<Int>(0)

    static let domain = "counted"
    var typeName: String { "counted.happened" }
    var schemaVersion: UInt16 { 1 }
    var streamID: String { "counted-1" }
    var tags: [String] { [] }
    func encodeData() throws -> Data { Data("{}".utf8) }
    static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> CountedEvent? {
        attempts.add(1, ordering: .relaxed)
        guard typeName == "counted.happened" else { return nil }
        decodes.add(1, ordering: .relaxed)
        return .happened
    }
}

/// Counts the `CountedEvent`s it sees.
private struct CountingProjection: Projection {
    var name: String
    var version: Int { 1 }
    var tables: [String] { ["count"] }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard try event.decoded(as: CountedEvent.self) != nil else { return }
        try model.put((try model.value(Int.self, at: "n", in: "count") ?? 0) + 1, at: "n", in: "count")
    }
}

/// Records each batch it is told of, with how far read-your-writes had got at that moment.
private final class RecordingObserver: ProjectionObserver {
    struct Call: Sendable { let first: UInt64; let last: UInt64; let projectedThen: UInt64 }
    let projected: PositionWatch
    let calls = Mutex<[Call]>([])
    let swaps = Mutex<[String]>([])

    init(projected: PositionWatch) { self.projected = projected }

    func committed(_ events: [ProjectedEvent]) {
        guard let first = events.first, let last = events.last else { return }
        calls.withLock { $0.append(Call(first: first.position, last: last.position, projectedThen: projected.position)) }
    }

    func swapped(_ name: String) { swaps.withLock { $0.append(name) } }
}

@Suite("Projection batches", .serialized, .timeLimit(.minutes(3)))  // serialized: one decode counter
struct ProjectionBatchTests {
    @Test func eachEventIsDecodedOnceHoweverManyProjectionsAskForIt() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let projections = (0..<5).map { CountingProjection(name: "counting\($0)") }
        let engine = try setup.engine(projections)
        _ = try await engine.prepare()
        let before = CountedEvent.decodes.load(ordering: .relaxed)
        try await setup.append(1_500, type: "counted.happened")
        try await setup.append(300, type: "test.other")
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(1_800)
        for projection in projections {
            #expect(try engine.read(projection) { try $0.value(Int.self, at: "n", in: "count") } == 1_500)
        }
        #expect(CountedEvent.decodes.load(ordering: .relaxed) - before == 1_500, "five projections, one decode per event")
    }

    /// A batch read ahead is decoded in slices, one per core: every record of the domain once,
    /// none of another domain, and a projection asking afterwards decodes nothing again.
    @Test func aBatchDecodedAheadInSlicesDecodesEachRecordOnce() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(400, type: "counted.happened")
        try await setup.append(201, type: "test.other")
        try await setup.append(299, type: "counted.happened")
        let page = DecodedEvents(try await setup.log.readAll(from: 1, direction: .forward, limit: 1_000), opening: nil)
        let before = CountedEvent.decodes.load(ordering: .relaxed)
        let cpu = await page.decodeAhead([CountedEvent.self, CountedEvent.self], slices: 3)
        #expect(cpu > .zero, "the slices' CPU time, for the engine to weigh against its apply")
        #expect(CountedEvent.decodes.load(ordering: .relaxed) - before == 699)
        let decoded = try page.records.indices.map { try page.event(CountedEvent.self, at: $0) }
        #expect(decoded.filter { $0 == .happened }.count == 699 && decoded.filter { $0 == nil }.count == 201)
        #expect(CountedEvent.decodes.load(ordering: .relaxed) - before == 699, "nothing decoded twice")
    }

    /// Projections ask for every domain they read, of every event: a record of another domain
    /// is answered nil without calling the domain's decoder, also when the batch has none of it.
    @Test(arguments: [false, true])
    func anotherDomainsRecordIsNeverHandedToTheDecoder(batchHoldsTheDomain: Bool) async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(50, type: "test.other")
        if batchHoldsTheDomain { try await setup.append(1, type: "counted.happened") }
        let page = DecodedEvents(try await setup.log.readAll(from: 1, direction: .forward, limit: 100), opening: nil)
        let before = CountedEvent.attempts.load(ordering: .relaxed)
        for index in 0..<50 { #expect(try page.event(CountedEvent.self, at: index) == nil) }
        #expect(CountedEvent.attempts.load(ordering: .relaxed) == before, "no decoder call for another domain's record")
        if batchHoldsTheDomain {
            #expect(try page.event(CountedEvent.self, at: 50) == .happened)
            #expect(CountedEvent.attempts.load(ordering: .relaxed) == before + 1)
        }
    }

    @Test func decodingInSlicesOnlyWhileItCostsMoreThanApplying() {
        var slices = BatchShares()
        #expect(slices.slices == 1)
        slices.learn(decodeCPU: .milliseconds(30), applyCPU: .milliseconds(10), rowsMadeAhead: false, rowsCPU: .zero)
        #expect(slices.slices == ProcessInfo.processInfo.activeProcessorCount)
        slices.learn(decodeCPU: .milliseconds(10), applyCPU: .milliseconds(30), rowsMadeAhead: false, rowsCPU: .zero)
        #expect(slices.slices == 1, "the slices would take the core the apply needs")
    }

    /// Rows are made ahead while the read-ahead side, rows included, stays the shorter one; the
    /// rows' cost last measured ahead is the estimate while the engine makes them.
    @Test func rowsAreMadeAheadOnlyWhileTheReadAheadSideHasTimeForThem() {
        var slices = BatchShares()
        #expect(slices.rowsAhead, "at first, which measures them")
        // An initial build: decoding 10 and rows 5 ahead, the engine's puts 30.
        slices.learn(decodeCPU: .milliseconds(10), applyCPU: .milliseconds(30), rowsMadeAhead: true, rowsCPU: .milliseconds(5))
        #expect(slices.rowsAhead && slices.slices == 1)
        // Decoding grew to 28: with the rows (33) it would outlast the engine (30).
        slices.learn(decodeCPU: .milliseconds(28), applyCPU: .milliseconds(30), rowsMadeAhead: true, rowsCPU: .milliseconds(5))
        #expect(!slices.rowsAhead && slices.slices == 1, "the engine makes them: 35 against 28")
        // The engine made them (its 35 holds the estimated 5); decoding fell back to 10.
        slices.learn(decodeCPU: .milliseconds(10), applyCPU: .milliseconds(35), rowsMadeAhead: false, rowsCPU: .zero)
        #expect(slices.rowsAhead && slices.slices == 1, "10 + 5 against the engine's 30 without them")
        // A rebuild of one projection: decoding 50, the engine's 20 with the rows.
        slices.learn(decodeCPU: .milliseconds(50), applyCPU: .milliseconds(20), rowsMadeAhead: false, rowsCPU: .zero)
        #expect(!slices.rowsAhead)
        #expect(slices.slices == ProcessInfo.processInfo.activeProcessorCount, "decoding is the longer side")
    }

    /// An applied batch is freed aside while that shortens the longer side: while the read-ahead
    /// side is the shorter one; never while decoding is the longer side.
    @Test func aBatchIsFreedAsideOnlyWhileTheReadAheadSideHasTimeForIt() {
        var slices = BatchShares()
        #expect(!slices.releaseAside, "at first on the engine, which measures the freeing")
        // An initial build: decoding 20, the engine's apply 30, freeing a batch 8.
        slices.learn(decodeCPU: .milliseconds(20), applyCPU: .milliseconds(30), rowsMadeAhead: false, rowsCPU: .zero,
                     releaseCPU: .milliseconds(8))
        #expect(slices.releaseAside, "the longer side 30 (engine) against 38 (engine and freeing)")
        // A rebuild of one projection: decoding 40 (in slices), the engine's apply 20.
        slices.learn(decodeCPU: .milliseconds(40), applyCPU: .milliseconds(20), rowsMadeAhead: false, rowsCPU: .zero,
                     releaseCPU: .milliseconds(8))
        #expect(!slices.releaseAside, "the longer side 48 (decoding and freeing) against 40 (decoding)")
        // Nothing measured to free: nothing to gain.
        slices.learn(decodeCPU: .milliseconds(20), applyCPU: .milliseconds(30), rowsMadeAhead: false, rowsCPU: .zero, releaseCPU: .zero)
        #expect(!slices.releaseAside)
    }

    /// A released batch is freed: at once here, and aside by a task of its own; the freeing's
    /// CPU time is kept either way.
    @Test(arguments: [false, true]) func aReleasedBatchIsFreed(aside: Bool) async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(300)
        let release = FreedBatches()
        weak var freed: DecodedEvents?
        do {
            let page = DecodedEvents(try await setup.log.readAll(from: 1, direction: .forward, limit: 1_000), opening: nil)
            _ = await page.decodeAhead([], slices: 1)
            freed = page
            release.free(consume page, aside: aside)
        }
        if !aside { #expect(freed == nil, "freed before release returns") }
        await release.settled()
        #expect(freed == nil, "freed once settled")
        #expect(release.lastCPU > .zero)
    }

    @Test(arguments: [(0, 2), (1, 2), (7, 3), (10_000, 2), (10_001, 3), (5, 16)])
    func slicesCoverEveryRecordOnceInOrder(count: Int, slices: Int) {
        let runs = DecodedEvents.runs(of: count, slices: slices)
        #expect(runs.flatMap { Array($0) } == Array(0..<count))
        #expect(runs.count == min(count, slices) && runs.allSatisfy { !$0.isEmpty })
        #expect((runs.map(\.count).max() ?? 0) - (runs.map(\.count).min() ?? 0) <= 1, "about equal")
    }

    @Test func observersHearOfEveryBatchBeforeItsWaitersAreReleased() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        let observer = RecordingObserver(projected: engine.projected)
        engine.addObserver(observer)
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(2_500)
        try await engine.waitUntilProjected(2_500)
        let calls = observer.calls.withLock { $0 }
        #expect(calls.first?.first == 1 && calls.last?.last == 2_500)
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.last + 1 == $1.first }, "every event once, in order")
        #expect(calls.allSatisfy { $0.projectedThen < $0.last }, "no waiter for a batch was released before its observers ran")
    }

    @Test func aCopyOfAnotherVersionIsNeverReadAndItsRebuildServesAgain() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        do {
            let old = try setup.engine([TypeCounts(version: 1)])
            _ = try await old.prepare()
            let live = Task { try await old.runLive() }
            try await setup.append(100)
            try await old.waitUntilProjected(100)
            live.cancel()
            _ = try? await live.value
        }
        let current = TypeCounts(version: 2)
        let engine = try setup.engine([current])
        let observer = RecordingObserver(projected: engine.projected)
        engine.addObserver(observer)
        #expect(try await engine.prepare() == ["typeCounts"])
        #expect(throws: ReadModelError.rebuilding("typeCounts")) { try count(engine, as: current) }
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(50)
        // Read-your-writes moves on although the stale copy is not applied to.
        try await engine.waitUntilProjected(150, timeout: .seconds(10))
        #expect(throws: ReadModelError.rebuilding("typeCounts")) { try count(engine, as: current) }
        try await engine.rebuild("typeCounts")
        #expect(try count(engine, as: current) == 150)
        #expect(try await engine.status().first?.version == 2)
        #expect(observer.swaps.withLock { $0 } == ["typeCounts"])
    }
}

@Suite("Read-model cache", .timeLimit(.minutes(3)))
struct ReadModelCacheTests {
    @Test func aValueIsReadOnceThenServedFromMemoryUntilInvalidated() throws {
        let cache = ReadModelCache<String, Int>(entriesMax: 10)
        let reads = Mutex(0)
        func read() throws(ReadModelError) -> Int? { reads.withLock { $0 += 1; return $0 } }
        #expect(try cache.value("a", orRead: read) == 1)
        #expect(try cache.value("a", orRead: read) == 1)
        #expect(reads.withLock { $0 } == 1)
        cache.invalidate(["a"])
        #expect(try cache.value("a", orRead: read) == 2)
    }

    @Test func anAbsentValueIsNotRemembered() throws {
        let cache = ReadModelCache<String, Int>(entriesMax: 10)
        #expect(try cache.value("a") { () throws(ReadModelError) in nil } == nil)
        #expect(try cache.value("a") { () throws(ReadModelError) in 7 } == 7, "a key that appears later is seen at once")
    }

    /// The race the generation guards against: an event changes the value while a miss is
    /// reading the older snapshot.
    @Test func aValueReadBeforeAnInvalidationIsNotStoredAfterIt() throws {
        let cache = ReadModelCache<String, Int>(entriesMax: 10)
        let stale = try cache.value("a") { () throws(ReadModelError) in
            cache.invalidate(["a"])  // the runner commits a change while this read is under way
            return 1
        }
        #expect(stale == 1, "the reader gets what its snapshot held")
        #expect(cache.count == 0)
        #expect(try cache.value("a") { () throws(ReadModelError) in 2 } == 2)
    }

    @Test func itStaysWithinItsBound() throws {
        let cache = ReadModelCache<Int, Int>(entriesMax: 100)
        for key in 0..<1_000 { _ = try cache.value(key) { () throws(ReadModelError) in key } }
        #expect(cache.count <= 100)
    }
}

@Suite("Read models written before the binary form", .timeLimit(.minutes(3)))
struct LegacyMetadataTests {
    /// A data directory from before the binary form holds JSON metadata and JSON values: the
    /// metadata must still be read, so the engine sees the old version and rebuilds, and never
    /// reads the JSON values with the binary code.
    @Test func jsonMetadataIsReadAndItsCopyRebuiltNotRead() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(30)
        do {
            let old = try setup.engine([TypeCounts(version: 1)])
            _ = try await old.prepare()
            let tables = try old.store.tables(of: TypeCounts(version: 1), generation: 0)
            // What the JSON era stored: a JSON value and JSON metadata at checkpoint 30.
            try old.store.write { txn in
                try txn.put(tables["counts"]!, Array("test.happened".utf8), Array("30".utf8))
                let legacy = #"{"version":1,"activeGeneration":0,"checkpoint":30}"#
                try txn.put(old.store.meta, Array("typeCounts".utf8), Array(legacy.utf8))
            }
        }
        let current = TypeCounts(version: 2)
        let engine = try setup.engine([current])
        #expect(try await engine.prepare() == ["typeCounts"], "the JSON metadata was read: version 1 is stale")
        #expect(engine.projected.position == 30, "and its checkpoint")
        #expect(throws: ReadModelError.rebuilding("typeCounts")) { try count(engine, as: current) }
        try await engine.rebuild("typeCounts")
        #expect(try count(engine, as: current) == 30)
        let rewritten = try engine.store.read { try $0.get(engine.store.meta, Array("typeCounts".utf8)).map { Array($0) } }
        #expect(rewritten?.first == ProjectionMeta.binaryFormat, "the metadata is binary from the first write on")
    }
}
