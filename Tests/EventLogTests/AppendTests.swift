import Foundation
import Testing
@testable import EventLog

@Suite("Append", .timeLimit(.minutes(3)))
struct AppendTests {
    @Test func positionsAreGapFreeFromOneAndVersionsPerStreamFromZero() async throws {
        let log = try TestLog(durable: true)
        defer { log.remove() }
        let first = try await log.store.append(request([event("house-a"), event("house-b"), event("house-a")]))
        #expect(first == AppendResult(firstPosition: 1, lastPosition: 3))
        let second = try await log.store.append(request([event("house-a")]))
        #expect(second == AppendResult(firstPosition: 4, lastPosition: 4))
        let all = try log.store.everything()
        #expect(all.map(\.position) == [1, 2, 3, 4])
        #expect(all.map(\.streamVersion) == [0, 0, 1, 2])
        #expect(try log.store.streamVersion("house-a") == 2)
        #expect(try log.store.streamVersion("house-none") == nil)
        #expect(try log.store.headPosition() == 4)
    }

    @Test func recordKeepsEveryFieldOfTheEventAndItsCommand() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000.123456)
        let log = try TestLog { $0.clock = { now } }
        defer { log.remove() }
        let metadata = AppendMetadata(commandID: UUID(), correlationID: UUID(), causationID: UUID(), actor: "user-7")
        let proposed = ProposedEvent(streamID: "house-x", type: "household.taskCompleted", schemaVersion: 3,
                                     tags: ["house:x", "user:7"], data: Data(#"{"points":5}"#.utf8))
        _ = try await log.store.append(AppendRequest(events: [proposed], metadata: metadata))
        let stored = try #require(try log.store.event(at: 1))
        #expect(stored.streamID == "house-x" && stored.category == "house")
        #expect(stored.type == "household.taskCompleted" && stored.schemaVersion == 3)
        #expect(stored.tags == ["house:x", "user:7"] && stored.data == proposed.data)
        #expect(stored.actor == "user-7" && stored.commandID == metadata.commandID)
        #expect(stored.correlationID == metadata.correlationID && stored.causationID == metadata.causationID)
        #expect(abs(stored.recordedAt.timeIntervalSince(now)) < 0.000_001)
    }

    @Test func recordedAtNeverGoesBackwardsWhenTheClockDoes() async throws {
        let times = TimeSource([Date(timeIntervalSince1970: 2_000), Date(timeIntervalSince1970: 1_000)])
        let log = try TestLog { $0.clock = { times.next() } }
        defer { log.remove() }
        _ = try await log.store.append(request([event("s-1")]))
        _ = try await log.store.append(request([event("s-1")]))
        let all = try log.store.everything()
        #expect(all[1].recordedAt >= all[0].recordedAt)
    }

    @Test func expectedVersionConditions() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        _ = try await store.append(request([event("s-1")], expect: ["s-1": .noStream]))
        await #expect(throws: EventLogError.wrongExpectedVersion(streamID: "s-1", expected: .noStream, actual: 0)) {
            try await store.append(request([event("s-1")], expect: ["s-1": .noStream]))
        }
        _ = try await store.append(request([event("s-1")], expect: ["s-1": .exact(0)]))
        await #expect(throws: EventLogError.wrongExpectedVersion(streamID: "s-1", expected: .exact(0), actual: 1)) {
            try await store.append(request([event("s-1")], expect: ["s-1": .exact(0)]))
        }
        await #expect(throws: EventLogError.wrongExpectedVersion(streamID: "s-2", expected: .exact(0), actual: nil)) {
            try await store.append(request([event("s-2")], expect: ["s-2": .exact(0)]))
        }
        _ = try await store.append(request([event("s-1")], expect: ["s-1": .any]))
        #expect(try store.headPosition() == 3, "failed appends wrote nothing")
    }

    @Test func multiStreamAppendIsAllOrNothing() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        _ = try await store.append(request([event("b-1")]))
        // The condition on b-1 fails, so neither a-1's nor b-1's new event may land.
        let refused = UUID()
        await #expect(throws: EventLogError.wrongExpectedVersion(streamID: "b-1", expected: .noStream, actual: 0)) {
            try await store.append(request([event("a-1"), event("b-1")], expect: ["a-1": .noStream, "b-1": .noStream], commandID: refused))
        }
        #expect(try store.streamVersion("a-1") == nil && store.streamVersion("b-1") == 0)
        #expect(try store.everything().count == 1)
        #expect(try store.appendResult(ofCommand: refused) == nil, "not even its command was recorded")
        let both = try await store.append(request([event("a-1"), event("b-1")], expect: ["a-1": .noStream, "b-1": .exact(0)]))
        #expect(both.lastPosition - both.firstPosition == 1)
    }

    @Test func tagConditionFailsOnlyWhenAMatchingEventCameAfterThePosition() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let email = EventQuery(types: ["account.registered"], tags: ["email:ann@x.org"])
        _ = try await store.append(request([event("account-1", "account.registered", tags: ["email:ann@x.org"])],
                                           condition: AppendCondition(failIfEventsMatch: email, after: 0)))
        await #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 1, type: "account.registered", streamID: "account-1")) {
            try await store.append(request([event("account-2", "account.registered", tags: ["email:ann@x.org"])],
                                           condition: AppendCondition(failIfEventsMatch: email, after: 0)))
        }
        // A decision that had seen position 1 is still valid.
        _ = try await store.append(request([event("account-1", "account.renamed", tags: ["email:ann@x.org"])],
                                           condition: AppendCondition(failIfEventsMatch: email, after: 1)))
        // Same tag but another type does not match the query's types.
        _ = try await store.append(request([event("account-3", "account.registered", tags: ["email:bob@x.org"])],
                                           condition: AppendCondition(failIfEventsMatch: email, after: 1)))
        #expect(try store.headPosition() == 3)
    }

    @Test func tagConditionNeedsEveryTagOfAnItemAndAnyItemOfTheQuery() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        _ = try await store.append(request([event("g-1", tags: ["a", "b"]), event("g-2", "other.type", tags: ["c"])]))
        let cases: [(EventQuery, UInt64?)] = [
            (EventQuery(tags: ["a"]), 1),
            (EventQuery(tags: ["a", "b"]), 1),
            (EventQuery(tags: ["a", "c"]), nil),
            (EventQuery(items: [.init(tags: ["a", "c"]), .init(tags: ["c"])]), 2),
            (EventQuery(types: ["other.type"]), 2),
            (EventQuery(types: ["nobody"]), nil),
            (EventQuery(types: ["test.happened", "other.type"]), 1),
            (EventQuery(), 1),
        ]
        for (query, conflict) in cases {
            do {
                _ = try await store.append(request([event("probe-1", "probe", tags: ["probe"])],
                                                   condition: AppendCondition(failIfEventsMatch: query, after: 0)))
                #expect(conflict == nil, "\(query) should have conflicted")
            } catch let EventLogError.appendConditionFailed(position, _, _) {
                #expect(position == conflict, "\(query)")
            }
        }
    }

    @Test func retryWithTheSameCommandIDReturnsTheFirstOutcomeAndWritesNothing() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let commandID = UUID()
        let first = try await log.store.append(request([event("s-1"), event("s-2")], commandID: commandID))
        _ = try await log.store.append(request([event("s-3")]))
        // The retry would fail its condition now; it must still answer with the first outcome.
        let retry = try await log.store.append(request([event("s-1")], expect: ["s-1": .noStream], commandID: commandID))
        #expect(retry == AppendResult(firstPosition: first.firstPosition, lastPosition: first.lastPosition, isReplay: true))
        #expect(try log.store.headPosition() == 3)
    }

    @Test func aCommandsOutcomeCanBeLookedUpBeforeRetrying() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let commandID = UUID()
        #expect(try log.store.appendResult(ofCommand: commandID) == nil)
        let first = try await log.store.append(request([event("s-1"), event("s-2")], commandID: commandID))
        #expect(try log.store.appendResult(ofCommand: commandID) == AppendResult(firstPosition: first.firstPosition, lastPosition: first.lastPosition, isReplay: true))
    }

    @Test func concurrentRetriesOfOneCommandAppendOnce() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let commandID = UUID()
        let store = log.store
        let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
            for _ in 0..<32 { group.addTask { try await store.append(request([event("s-1")], commandID: commandID)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.map(\.firstPosition)) == [1])
        #expect(results.filter { !$0.isReplay }.count == 1)
        #expect(try store.headPosition() == 1)
    }

    @Test func appendAfterCloseIsAnError() async throws {
        let log = try TestLog()
        defer { log.remove() }
        log.store.close()
        await #expect(throws: EventLogError.closed) { try await log.store.append(request([event("s-1")])) }
    }
}

/// Hands out the given dates in turn, then repeats the last.
final class TimeSource: @unchecked Sendable {
    private var dates: [Date]
    private let lock = NSLock()
    init(_ dates: [Date]) { self.dates = dates }
    func next() -> Date {
        lock.withLock { dates.count > 1 ? dates.removeFirst() : dates[0] }
    }
}
