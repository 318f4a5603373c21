import Foundation
import Testing
@testable import EventLog

@Suite("Reads", .timeLimit(.minutes(3)))
struct ReadTests {
    /// house-a gets versions 0..9 at odd positions, game-b 0..9 at even ones; every third event is tagged.
    private func seeded() async throws -> TestLog {
        let log = try TestLog()
        for round in 0..<10 {
            _ = try await log.store.append(request([
                event("house-a", "house.changed", tags: round % 3 == 0 ? ["third"] : []),
                event("game-b", "game.changed", tags: ["game:b"]),
            ]))
        }
        return log
    }

    @Test func streamForwardAndBackwardWithPaging() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let store = log.store
        #expect(try store.readStream("house-a", limit: 4).map(\.streamVersion) == [0, 1, 2, 3])
        #expect(try store.readStream("house-a", from: 4, limit: 4).map(\.streamVersion) == [4, 5, 6, 7])
        #expect(try store.readStream("house-a", from: 8, limit: 4).map(\.streamVersion) == [8, 9])
        #expect(try store.readStream("house-a", from: .max, direction: .backward, limit: 3).map(\.streamVersion) == [9, 8, 7])
        #expect(try store.readStream("house-a", from: 2, direction: .backward, limit: 5).map(\.streamVersion) == [2, 1, 0])
        #expect(try store.readStream("house-a", limit: 20).allSatisfy { $0.streamID == "house-a" })
        #expect(try store.readStream("house-none", limit: 5).isEmpty)
        // A stream whose name is a prefix of another's does not see the other's events.
        _ = try await store.append(request([event("house-ab")]))
        #expect(try store.readStream("house-a", limit: 100).count == 10)
    }

    /// A name longer than LMDB's 511-byte keys: it names nothing, rather than failing storage.
    @Test func aNameLongerThanTheLogWritesNamesNothing() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let store = log.store
        let long = "house-" + String(repeating: "a", count: 600)
        #expect(try store.streamVersion(long) == nil)
        #expect(try store.readStream(long, limit: 5).isEmpty)
        #expect(try store.readStream(long, from: .max, direction: .backward, limit: 5).isEmpty)
        #expect(try store.readCategory(String(repeating: "c", count: 600), limit: 5).isEmpty)
        #expect(try store.readTag(String(repeating: "t", count: 600), limit: 5).isEmpty)
        #expect(try store.readType(String(repeating: "t", count: 600), limit: 5).isEmpty)
        #expect(try store.streamVersion("house-a") == 9, "names within the limits read as before")
    }

    @Test func allEventsBothWays() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let store = log.store
        #expect(try store.readAll(from: 1, limit: 5).map(\.position) == [1, 2, 3, 4, 5])
        #expect(try store.readAll(from: 19, limit: 5).map(\.position) == [19, 20])
        #expect(try store.readAll(from: 21, limit: 5).isEmpty)
        #expect(try store.readAll(from: .max, direction: .backward, limit: 3).map(\.position) == [20, 19, 18])
        #expect(try store.readAll(from: 2, direction: .backward, limit: 3).map(\.position) == [2, 1])
        #expect(try store.readAll(from: 0, limit: 1).map(\.position) == [1])
    }

    @Test func categoryTagAndTypeIndexes() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let store = log.store
        #expect(try store.readCategory("game", limit: 100).map(\.position) == Array(stride(from: 2, through: 20, by: 2)))
        #expect(try store.readCategory("game", from: 15, limit: 2).map(\.position) == [16, 18])
        #expect(try store.readCategory("house-a", limit: 100).isEmpty, "a category is the part before the first dash")
        #expect(try store.readTag("third", limit: 100).map(\.position) == [1, 7, 13, 19])
        #expect(try store.readTag("game:b", from: 19, limit: 100).map(\.position) == [20])
        #expect(try store.readType("house.changed", limit: 3).map(\.position) == [1, 3, 5])
        #expect(try store.readType("unknown", limit: 3).isEmpty)
    }

    @Test func queryReadsReturnMatchesAndTheSnapshotTheyCovered() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let store = log.store
        let result = try store.read(matching: EventQuery(items: [.init(tags: ["third"]), .init(types: ["game.changed"])]), limit: 4)
        #expect(result.events.map(\.position) == [1, 2, 4, 6])
        #expect(result.checkedUpTo == 20)
        #expect(try store.read(matching: EventQuery(tags: ["third"]), after: 7, limit: 10).events.map(\.position) == [13, 19])
        #expect(try store.read(matching: EventQuery(), after: 18, limit: 10).events.map(\.position) == [19, 20])
    }

    @Test func pagesEndEarlyAtTheByteCapAndPagingStillReadsEverything() async throws {
        let log = try TestLog { $0.limits.readPageBytesMax = 1_000 }
        defer { log.remove() }
        let store = log.store
        let payload = #"{"text":"\#(String(repeating: "z", count: 300))"}"#
        for _ in 0..<10 { _ = try await store.append(request([event("big-1", "big.one", tags: ["big"], payload)])) }
        let first = try store.readAll(from: 1, limit: 10)
        #expect(first.map(\.position) == [1, 2], "a page stops before passing 1,000 record bytes")
        #expect(try store.readTag("big", limit: 10).count == 2)
        #expect(try store.readStream("big-1", from: .max, direction: .backward, limit: 10).map(\.streamVersion) == [9, 8])
        #expect(try store.everything().map(\.position) == Array(1...10))
        var seen: [UInt64] = []
        for try await event in store.subscribe(from: 1) {
            seen.append(event.position)
            if seen.count == 10 { break }
        }
        #expect(seen == Array(1...10))
        let huge = try TestLog { $0.limits.readPageBytesMax = 10 }
        defer { huge.remove() }
        _ = try await huge.store.append(request([event("big-1", "big.one", payload)]))
        #expect(try huge.store.readAll(from: 1, limit: 10).count == 1, "a page always holds at least one event")
    }

    /// A batch is not a page: it holds the record bytes of the pages it stands for, so the page
    /// byte cap does not cut it at one page's worth, and never more than those pages' worth.
    @Test func aBatchHoldsThePagesItStandsForAndNoMoreBytes() async throws {
        let log = try TestLog { $0.limits.readPageBytesMax = 1_000 }
        defer { log.remove() }
        let store = log.store
        let payload = #"{"text":"\#(String(repeating: "z", count: 300))"}"#
        for batch in 0..<3 {
            _ = try await store.append(request((0..<1_000).map { _ in event("big-\(batch)", "big.one", tags: ["big"], payload) }))
        }
        #expect(try store.readAll(from: 1, limit: 10).count == 2, "a page stops at 1,000 record bytes")
        let batch = try store.readBatch(from: 1, limit: 3_000)
        #expect(batch.map(\.position) == Array(1...UInt64(batch.count)))
        #expect((6...8).contains(batch.count), "three pages' bytes, 3,000, hold six to eight records of ~350 bytes")
        let unbounded = try TestLog()
        defer { unbounded.remove() }
        for batch in 0..<3 {
            _ = try await unbounded.store.append(request((0..<1_000).map { _ in event("big-\(batch)", "big.one", tags: ["big"], payload) }))
        }
        #expect(try unbounded.store.readBatch(from: 1, limit: 3_000).count == 3_000, "the default caps hold a full batch")
        #expect(try unbounded.store.readBatch(from: 1, limit: 2_500).count == 2_500)
    }

    @Test func pageSizeIsBounded() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let store = log.store
        let max = store.options.limits.readPageEventsMax
        #expect(throws: EventLogError.limitExceeded(limit: "readPageEventsMax", value: max + 1, max: max)) {
            try store.readAll(from: 1, limit: max + 1)
        }
        #expect(throws: EventLogError.invalidArgument(field: "limit", reason: "must be at least 1")) {
            try store.readStream("house-a", limit: 0)
        }
    }
}
