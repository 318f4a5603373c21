import Foundation
import EventLog
import Testing

/// SPEC §1's reads and live subscriptions, on every backend.
@Suite("Conformance: reads", .timeLimit(.minutes(3)))
struct ConformanceReadTests {
    /// house-1: 3 events, house-2: 2, user-1: 1, interleaved; tags and types vary.
    private func fill(_ store: any EventStore) async throws {
        _ = try await store.append(request([
            event("house-1", "house.created", tags: ["house:1"]),
            event("house-2", "house.created", tags: ["house:2"]),
            event("user-1", "user.joined", tags: ["house:1", "user:1"]),
            event("house-1", "task.done", tags: ["house:1", "user:1"]),
            event("house-2", "task.done", tags: ["house:2"]),
            event("house-1", "task.done", tags: ["house:1"]),
        ]))
    }

    @Test(arguments: Backend.available)
    func everyReadWalksItsIndexBothWaysFromItsStart(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            try await fill(store)
            #expect(try await store.readAll(from: 2, direction: .forward, limit: 3).map(\.position) == [2, 3, 4])
            #expect(try await store.readAll(from: 5, direction: .backward, limit: 10).map(\.position) == [5, 4, 3, 2, 1])
            #expect(try await store.readAll(from: 7, direction: .forward, limit: 10).isEmpty)
            #expect(try await store.readStream("house-1", from: 1, direction: .forward, limit: 10).map(\.streamVersion) == [1, 2])
            #expect(try await store.readStream("house-1", from: 1, direction: .backward, limit: 10).map(\.position) == [4, 1])
            #expect(try await store.readStream("house-9", from: 0, direction: .forward, limit: 10).isEmpty)
            #expect(try await store.readCategory("house", from: 2, direction: .forward, limit: 2).map(\.position) == [2, 4])
            #expect(try await store.readCategory("house", from: 6, direction: .backward, limit: 10).map(\.position) == [6, 5, 4, 2, 1])
            #expect(try await store.readTag("house:1", from: 1, direction: .forward, limit: 10).map(\.position) == [1, 3, 4, 6])
            #expect(try await store.readTag("house:1", from: 4, direction: .backward, limit: 2).map(\.position) == [4, 3])
            #expect(try await store.readType("task.done", from: 5, direction: .forward, limit: 10).map(\.position) == [5, 6])
            #expect(try await store.readType("task.done", from: 5, direction: .backward, limit: 10).map(\.position) == [5, 4])
            let matched = try await store.read(matching: EventQuery(types: ["task.done"], tags: ["user:1"]), after: 0, limit: 10)
            #expect(matched.events.map(\.position) == [4] && matched.checkedUpTo == 6)
        }
    }

    @Test(arguments: Backend.available)
    func theChainHeadAndTheKindsOfTagAreTheSameOnEveryBackend(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.server
            #expect(try await store.chainHead() == ChainHead(position: 0, hash: [UInt8](repeating: 0, count: 32)), "an empty log's head")
            #expect(try await store.tagKinds(kindsMax: 10).isEmpty)
            try await fill(store)
            _ = try await store.append(request([event("s-1", tags: ["plain", "zone:9", "house:3"])]))
            #expect(try await store.tagKinds(kindsMax: 10) == ["house", "user", "zone"], "a tag without a colon names no kind")
            #expect(try await store.tagKinds(kindsMax: 2) == ["house"], "kindsMax bounds the index probes, the kindless tag's too")
            let head = try #require(try await store.chainHead())
            let report = try await store.verify()
            #expect(head.position == 7 && report.isHealthy && report.chainHead == head)
            let forged = ChainHead(position: 3, hash: [UInt8](repeating: 1, count: 32))
            let checked = try await store.verify(heads: [head, forged])
            #expect(!checked.isHealthy && checked.headsChecked == 2 && checked.firstDivergingPosition == 3, "\(checked.problems)")
        }
    }

    @Test(arguments: Backend.available)
    func namesTheLogCannotHoldReadAsNothing(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            try await fill(store)
            let long = String(repeating: "x", count: 5_000)
            #expect(try await store.readStream("house-" + long, from: 0, direction: .forward, limit: 10).isEmpty)
            #expect(try await store.readTag(long, from: 1, direction: .forward, limit: 10).isEmpty)
            #expect(try await store.readType("a\u{0}b", from: 1, direction: .forward, limit: 10).isEmpty)
            #expect(try await store.streamVersion("house-\u{0}") == nil)
            // Empty: a key LMDB refuses (it was a 500 of GET /v1/admin/streams/%ff).
            #expect(try await store.streamVersion("") == nil)
            #expect(try await store.readStream("", from: 0, direction: .forward, limit: 10).isEmpty)
            await #expect(throws: EventLogError.invalidArgument(field: "limit", reason: "must be at least 1")) {
                try await store.readAll(from: 1, direction: .forward, limit: 0)
            }
        }
    }

    @Test(arguments: Backend.available)
    func aPageStopsAtItsByteLimitButAlwaysHoldsOneEvent(_ backend: Backend) async throws {
        try await withLog(backend, configure: { $0.limits.readPageBytesMax = 600 }) { log in
            let store = log.store
            let padding = String(repeating: "p", count: 200)
            _ = try await store.append(request((0..<6).map { _ in event("s-1", tags: [], #"{"p":"\#(padding)"}"#) }))
            let page = try await store.readAll(from: 1, direction: .forward, limit: 100)
            #expect(page.count >= 1 && page.count < 6, "records of ~300 bytes: a 600-byte page holds one or two")
            #expect(page.map(\.position) == Array(1...UInt64(page.count)))
            let huge = String(repeating: "h", count: 2_000)
            _ = try await store.append(request([event("s-2", tags: [], #"{"p":"\#(huge)"}"#)]))
            #expect(try await store.readAll(from: 7, direction: .forward, limit: 100).map(\.position) == [7], "one event over the limit still reads")
        }
    }

    /// A batch read holds every event from its position until its limit or the log's end, in
    /// order, the same records `readAll`'s pages give; it refuses a limit below one.
    @Test(arguments: Backend.available)
    func aBatchReadHoldsEveryEventUntilItsLimitOrTheLogsEnd(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            for index in 0..<3 {
                _ = try await store.append(request((0..<1_000).map { _ in event("s-\(index)", tags: ["t:\(index)"]) }))
            }
            var pages: [RecordedEvent] = []
            while pages.count < 3_000 {
                pages += try await store.readAll(from: UInt64(pages.count) + 1, direction: .forward, limit: 1_000)
            }
            let all = try await store.readBatch(from: 1, limit: 20_000)
            #expect(all.count == 3_000 && all.elementsEqual(pages))
            let middle = try await store.readBatch(from: 1_234, limit: 1_500)
            #expect(middle.count == 1_500 && middle.elementsEqual(pages[1_233..<2_733]))
            #expect(try await store.readBatch(from: 2_990, limit: 100).map(\.position) == Array(2_990...3_000))
            #expect(try await store.readBatch(from: 3_001, limit: 100).isEmpty)
            await #expect(throws: EventLogError.invalidArgument(field: "limit", reason: "must be at least 1")) {
                try await store.readBatch(from: 1, limit: 0)
            }
        }
    }

    /// A read by positions gives the records `readAll` gives at them, in the order asked (a
    /// page of reviews is newest first), leaves out a position the log does not hold, reads
    /// nothing for no position, and refuses more positions than a page may hold.
    @Test(arguments: Backend.available)
    func eventsReadAtPositionsAreTheLogsRecordsInTheOrderAsked(_ backend: Backend) async throws {
        try await withLog(backend, configure: { $0.limits.readPageEventsMax = 100 }) { log in
            let store = log.store
            _ = try await store.append(request((0..<60).map { index in event("s-\(index % 7)", tags: ["t:\(index)"]) }))
            var all: [RecordedEvent] = []
            while all.count < 60 { all += try await store.readAll(from: UInt64(all.count) + 1, direction: .forward, limit: 100) }
            let wanted: [UInt64] = [57, 3, 42, 1, 60, 3]
            #expect(try await store.events(at: wanted) == wanted.map { all[Int($0) - 1] })
            #expect(try await store.events(at: [61, 5, 0, 1_000]).map(\.position) == [5], "what the log does not hold is left out")
            #expect(try await store.events(at: []).isEmpty)
            await #expect(throws: EventLogError.limitExceeded(limit: "readPageEventsMax", value: 101, max: 100)) {
                try await store.events(at: Array(repeating: 1, count: 101))
            }
        }
    }

    /// A batch is not bounded by the store's page limit: a store configured with pages of 10
    /// events still hands a runner 25 in one batch.
    @Test(arguments: Backend.available)
    func aBatchReadGoesPastASmallPageLimit(_ backend: Backend) async throws {
        try await withLog(backend, configure: { $0.limits.readPageEventsMax = 10 }) { log in
            let store = log.store
            _ = try await store.append(request((0..<30).map { _ in event("s-1") }))
            #expect(try await store.readBatch(from: 1, limit: 25).map(\.position) == Array(1...25))
            #expect(try await store.readBatch(from: 21, limit: 25).map(\.position) == Array(21...30))
        }
    }

    @Test(arguments: Backend.available)
    func aSubscriptionCatchesUpThenFollowsWithoutGapOrDuplicate(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            for index in 0..<300 { _ = try await store.append(request([event("s-\(index % 7)")])) }
            let live = Task {
                try await firstEvents(of: store.subscribe(from: 250), count: 100)
            }
            for index in 0..<50 { _ = try await store.append(request([event("s-\(index % 3)")])) }
            let seen = try await live.value
            #expect(seen.map(\.position) == Array(250..<350))
        }
    }

    @Test(arguments: Backend.available)
    func anotherProcessesStoreSeesTheAppends(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            _ = try await log.store.append(request([event("s-1")]))
            let peer = try await log.peer()
            // A wide bound: in the full suite on two cores this has taken 48 s of a 62 s run.
            let following = Task { try await firstEvents(of: peer.store.subscribe(from: 1), count: 21, seconds: 90) }
            for _ in 0..<20 { _ = try await log.store.append(request([event("s-1")])) }
            #expect(try await following.value.map(\.position) == Array(1...21))
            #expect(try await peer.store.headPosition() == 21)
            await peer.close()
        }
    }
}
