import Foundation
import LMDB
import Synchronization
import Testing
@testable import EventLog

/// The index tail (docs/decisions/0008): events whose `streams`, `categories`, `types` and
/// `tags` entries are written later, all together. The conformance suite runs every read and
/// append rule on a log that keeps one (`Backend.lmdbIndexTail`); these tests check the tail
/// itself: that it is there when they say so, what `meta` and `verify` make of it, and how it
/// ends.
@Suite("Index tail")
struct IndexTailTests {
    /// Five streams in two categories, two types, a tag per stream and one shared by all.
    static func events(_ count: Int) -> [ProposedEvent] {
        (0..<count).map { n in
            event(n % 5 < 3 ? "house-\(n % 5)" : "game-\(n % 5)", n % 2 == 0 ? "test.even" : "test.odd", tags: ["owner:\(n % 5)", "all"])
        }
    }

    /// Appends `events` one request each, in order.
    static func appendEach(_ events: [ProposedEvent], to store: LMDBEventStore) async throws {
        for event in events { _ = try await store.append(request([event])) }
    }

    /// Entries of `index` in the B-tree.
    static func entries(_ index: String, of store: LMDBEventStore) throws -> Int {
        try #require(try store.statistics().databases[index]).entries
    }

    /// What every read path answers, for comparing a log with its tail against the same events
    /// fully indexed: each stream both ways and from its middle, each category, type and tag
    /// both ways, and a query of a tag and a type.
    static func everyRead(_ store: LMDBEventStore) async throws -> [String: [UInt64]] {
        var answers: [String: [UInt64]] = [:]
        for stream in 0..<5 {
            let id = stream < 3 ? "house-\(stream)" : "game-\(stream)"
            answers["stream \(id)"] = try store.readStream(id, limit: 100).map(\.position)
            answers["stream \(id) from 2"] = try store.readStream(id, from: 2, limit: 100).map(\.position)
            answers["stream \(id) backwards"] = try store.readStream(id, from: .max, direction: .backward, limit: 100).map(\.position)
            answers["stream \(id) backwards from 3"] = try store.readStream(id, from: 3, direction: .backward, limit: 2).map(\.position)
            answers["tag owner:\(stream)"] = try store.readTag("owner:\(stream)", limit: 100).map(\.position)
        }
        for category in ["house", "game"] {
            answers["category \(category)"] = try store.readCategory(category, limit: 100).map(\.position)
            answers["category \(category) backwards"] = try store.readCategory(category, from: .max, direction: .backward, limit: 100).map(\.position)
        }
        for type in ["test.even", "test.odd"] {
            answers["type \(type) from 9"] = try store.readType(type, from: 9, limit: 100).map(\.position)
        }
        answers["tag all, 4 from 15"] = try store.readTag("all", from: 15, limit: 4).map(\.position)
        answers["tag all backwards"] = try store.readTag("all", from: .max, direction: .backward, limit: 100).map(\.position)
        let query = EventQuery(items: [.init(types: ["test.odd"], tags: ["owner:1"]), .init(types: ["test.even"], tags: [])])
        answers["query after 4"] = try store.read(matching: query, after: 4, limit: 100).events.map(\.position)
        return answers
    }

    @Test func readsFindTheTailsEventsAsTheyFindIndexedOnes() async throws {
        // The same 25 events, once indexed at every commit, once with a tail of the last 5.
        let indexed = try TestLog { $0.indexTail.eventsMax = 0 }
        defer { indexed.remove() }
        try await Self.appendEach(Self.events(25), to: indexed.store)
        let tailed = try TestLog { $0.indexTail.eventsMax = 10; $0.indexTail.flushesWhenIdle = false }
        defer { tailed.remove() }
        try await Self.appendEach(Self.events(25), to: tailed.store)

        let tail = try tailed.store.indexTail()
        #expect(tail.start == 21 && tail.count == 5, "written at 10 and 20 events; 21…25 wait")
        #expect(try Self.entries("streams", of: tailed.store) == 20 && Self.entries("streams", of: indexed.store) == 25)
        #expect(try Self.entries("tags", of: tailed.store) == 40)
        let expected = try await Self.everyRead(indexed.store)
        #expect(expected["stream house-0"] == [1, 6, 11, 16, 21], "the reads compared are not empty")
        #expect(try await Self.everyRead(tailed.store) == expected)
        #expect(try tailed.store.tagKinds() == ["owner"])
        #expect(try tailed.store.statistics().eventsByType == ["test.even": 13, "test.odd": 12])
        #expect(try tailed.store.verify().isHealthy)

        // Another process's reader of the same directory reads the tail from the records.
        let reader = try tailed.reopen { $0.readOnly = true }
        defer { reader.close() }
        #expect(try await Self.everyRead(reader) == expected)
    }

    @Test func aTailSeenFromAnOlderSnapshotHidesTheEventsAfterIt() {
        // The writer's published tail may run past a reader's snapshot.
        var tail = IndexTail(startingAt: 11)
        for position in UInt64(11)...15 {
            tail.add(streamID: position < 14 ? "house-1" : "game-2", version: position - 11, type: "t", tags: ["at:\(position)"], at: position)
        }
        #expect(tail.start == 11 && tail.last == 15 && tail.count == 5)
        let seen = tail.seen(through: 13)
        #expect(seen.entries(in: .streams, name: "house-1").map(\.position) == [11, 12, 13])
        #expect(seen.entries(in: .streams, name: "game-2").isEmpty && seen.entries(in: .types, name: "t").count == 3)
        #expect(Set(seen.names(in: .tags)) == ["at:11", "at:12", "at:13"] && Set(seen.names(in: .categories)) == ["house"])
        #expect(Set(tail.names(in: .categories)) == ["house", "game"] && IndexTail(startingAt: 0).last == 0)
    }

    /// A store without the writer (as `logbook-admin` is) reads the tail from the records while
    /// 16 writers append: every read of a stream is a gap-free run of its versions from 0.
    ///
    /// The writers wait after their first appends (48 events, fewer than the tail's 64) until the
    /// reader has met the tail, for at most 20 s: in the whole suite the pool's threads were once
    /// busy elsewhere until every append was done, and the reader, first run then, met no tail.
    @Test(.timeLimit(.minutes(1)))
    func aReaderOfAnotherStoreReadsWholeStreamsWhileWritersAppend() async throws {
        let log = try TestLog { $0.indexTail.eventsMax = 64; $0.indexTail.flushesWhenIdle = false }
        defer { log.remove() }
        let reader = try log.reopen { $0.readOnly = true }
        defer { reader.close() }
        let writers = 16, appendsEach = 40, appendsBeforeWaiting = 3
        let readerMetATail = Flag()
        let readsThatMetATail = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<appendsEach {
                        if index == appendsBeforeWaiting {
                            let deadline = ContinuousClock.now + .seconds(20)
                            while !readerMetATail.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
                        }
                        _ = try await log.store.append(request([event("w-\(writer)", tags: ["writer:\(writer)"])]))
                    }
                    return 0
                }
            }
            group.addTask {
                var metATail = 0
                while try reader.headPosition() < UInt64(writers * appendsEach) {
                    let tail = try reader.indexTail()
                    if !tail.isEmpty {
                        metATail += 1
                        readerMetATail.set()
                    }
                    for writer in 0..<writers {
                        let versions = try reader.readStream("w-\(writer)", limit: 1_000).map(\.streamVersion)
                        #expect(versions == Array(0..<UInt64(versions.count)), "w-\(writer) read whole")
                        let tagged = try reader.readTag("writer:\(writer)", limit: 1_000).map(\.position)
                        #expect(tagged == tagged.sorted() && tagged.count >= versions.count, "a later snapshot has no fewer")
                    }
                    await Task.yield()
                }
                return metATail
            }
            return try await group.reduce(0, +)
        }
        #expect(readsThatMetATail > 0, "the reader met a tail, else this proves nothing")
        #expect(try reader.readTag("writer:3", limit: 1_000).count == appendsEach)
        #expect(try reader.verify().isHealthy)
    }

    @Test func aConditionIsCheckedAgainstTheTail() async throws {
        let log = try TestLog { $0.indexTail.eventsMax = 100; $0.indexTail.flushesWhenIdle = false }
        defer { log.remove() }
        _ = try await log.store.append(request([event("house-1", tags: ["house:1"])]))
        _ = try await log.store.append(request([event("house-2", tags: ["house:2"])]))
        #expect(try log.store.indexTail().count == 2 && Self.entries("tags", of: log.store) == 0, "both in the tail")
        let condition = AppendCondition(failIfEventsMatch: EventQuery(tags: ["house:1"]), after: 0)
        await #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 1, type: "test.happened", streamID: "house-1")) {
            try await log.store.append(request([event("house-1")], condition: condition))
        }
        let later = AppendCondition(failIfEventsMatch: EventQuery(tags: ["house:1"]), after: 1)
        #expect(try await log.store.append(request([event("house-1")], condition: later)).firstPosition == 3)
    }

    @Test func anIdleWriterWritesTheTailSoALogAtRestHasNone() async throws {
        let log = try TestLog { $0.indexTail.eventsMax = 1_000 }
        defer { log.remove() }
        try await Self.appendEach(Self.events(6), to: log.store)
        #expect(try log.store.indexTail().isEmpty && Self.entries("streams", of: log.store) == 6, "nothing waited behind any append")
        // 64 at once: batches are taken while others wait, and the last has none behind it.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<64 { group.addTask { _ = try await log.store.append(request([event("writer-\(n)", tags: ["writer:\(n)"])])) } }
            try await group.waitForAll()
        }
        #expect(try log.store.indexTail().isEmpty && Self.entries("streams", of: log.store) == 70)
        #expect(try log.store.verify().isHealthy)
    }

    @Test func aTailAStoppedWriterLeftIsReadThenWrittenByTheNextAppend() async throws {
        let log = try TestLog { $0.indexTail.eventsMax = 100; $0.indexTail.flushesWhenIdle = false }
        defer { log.remove() }
        try await Self.appendEach(Self.events(7), to: log.store)
        log.store.close()

        let reader = try log.reopen { $0.readOnly = true }
        #expect(try reader.indexTail().count == 7 && reader.readStream("house-0", limit: 10).map(\.position) == [1, 6])
        #expect(try reader.verify().isHealthy)
        reader.close()

        // Reopened without the tail: its first batch writes what the last run left, and reads
        // look for a tail since one was there.
        let writer = try log.reopen { $0.indexTail.eventsMax = 0 }
        defer { writer.close() }
        #expect(writer.readsIndexTail)
        #expect(try writer.indexTail().count == 7 && Self.entries("streams", of: writer) == 0)
        _ = try await writer.append(request([event("house-0")]))
        #expect(try writer.indexTail().isEmpty && Self.entries("streams", of: writer) == 8 && Self.entries("tags", of: writer) == 14)
        #expect(try writer.readStream("house-0", limit: 10).map(\.position) == [1, 6, 8])
        #expect(try writer.verify().isHealthy)
    }

    /// The tail off (`eventsMax` 0) on a log that holds none: the writer's process reads no tail
    /// (`indexTail(in:)` answers an empty one without reading `meta`), even when `meta` names one
    /// behind its back; a reader in another process cannot know, and looks.
    @Test func withTheTailOffAndNoneStoredTheWritersProcessReadsNoTail() async throws {
        let log = try TestLog { $0.indexTail.eventsMax = 0 }
        defer { log.remove() }
        try await Self.appendEach(Self.events(3), to: log.store)
        #expect(!log.store.readsIndexTail)
        try log.store.environment.write { txn in
            try txn.put(log.store.databases.meta, IndexTail.metaKey, IndexTail.metaValue(start: 2))
        }
        #expect(try log.store.indexTail().isEmpty && log.store.readStream("house-0", limit: 10).map(\.position) == [1])
        let reader = try log.reopen { $0.readOnly = true }
        defer { reader.close() }
        #expect(try reader.readsIndexTail && reader.indexTail().count == 2)
        let byDefault = try TestLog()
        defer { byDefault.remove() }
        #expect(byDefault.store.readsIndexTail, "the default keeps a tail, so its reads look for one")
    }

    @Test func verifyNamesAnEntryForAnEventOfTheTail() async throws {
        let log = try TestLog { $0.indexTail.eventsMax = 100; $0.indexTail.flushesWhenIdle = false }
        defer { log.remove() }
        try await Self.appendEach(Self.events(4), to: log.store)
        #expect(try log.store.verify().isHealthy)
        try log.store.environment.write { txn in
            try txn.put(log.store.databases.tags, IndexKeys.namePosition("all", 3), [])
        }
        let report = try log.store.verify()
        #expect(report.problems == [#"tags: entry "all" for position 3, which is in the index tail (from 1)"#])
    }

    @Test func aLogOfFormatTwoIsStampedThreeWhenOpenedWritable() async throws {
        let log = try TestLog()
        defer { log.remove() }
        try await Self.appendEach(Self.events(3), to: log.store)
        try log.store.environment.write { txn in
            var value = [UInt8]()
            value.appendBigEndian(LogDatabases.formatVersionBeforeIndexTail)
            try txn.put(log.store.databases.meta, LogDatabases.formatKey, value)
        }
        log.store.close()
        func format(_ store: LMDBEventStore) throws -> UInt32? {
            try store.environment.read { txn in
                try txn.get(store.databases.meta, LogDatabases.formatKey).map { $0.loadUnaligned(as: UInt32.self).bigEndian }
            }
        }
        let reader = try log.reopen { $0.readOnly = true }
        #expect(try format(reader) == 2 && reader.everything().count == 3 && reader.verify().isHealthy, "read as it is")
        reader.close()
        let writer = try log.reopen()
        defer { writer.close() }
        #expect(try format(writer) == 3)
        #expect(try writer.verify().isHealthy)
    }
}

/// A flag one task sets and others read.
private final class Flag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() {
        value.withLock { $0 = true }
    }
}
