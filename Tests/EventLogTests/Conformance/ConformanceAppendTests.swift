import Foundation
import EventLog
import Testing

/// SPEC §1's guarantees for appends, on every backend (`Backend.available`).
@Suite("Conformance: appends", .timeLimit(.minutes(3)))
struct ConformanceAppendTests {
    @Test(arguments: Backend.available)
    func positionsAreGapFreeFromOneAndVersionsPerStreamFromZero(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let first = try await log.store.append(request([event("house-a"), event("house-b"), event("house-a")]))
            #expect(first == AppendResult(firstPosition: 1, lastPosition: 3))
            let second = try await log.store.append(request([event("house-a")]))
            #expect(second == AppendResult(firstPosition: 4, lastPosition: 4))
            let all = try await log.everything()
            #expect(all.map(\.position) == [1, 2, 3, 4])
            #expect(all.map(\.streamVersion) == [0, 0, 1, 2])
            #expect(try await log.store.streamVersion("house-a") == 2)
            #expect(try await log.store.streamVersion("house-none") == nil)
            #expect(try await log.store.headPosition() == 4)
        }
    }

    /// An append bigger than one PostgreSQL statement carries (`Rows.statementBytesMax`, 64 MiB):
    /// 70 events of nearly the 1 MiB limit, stored whole and in one transaction.
    @Test(arguments: Backend.available)
    func anAppendOfMoreThan64MiBIsStoredWholeInOneCommit(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let filler = String(repeating: "x", count: (1 << 20) - 64)
            let events = (0..<70).map { event("big-\($0 % 3)", tags: ["big:\($0)"], #"{"n":\#($0),"filler":"\#(filler)"}"#) }
            #expect(events.reduce(0) { $0 + $1.data.count } > 64 << 20)
            let commitsBefore = log.commitCount
            let result = try await log.store.append(request(events))
            #expect(result == AppendResult(firstPosition: 1, lastPosition: 70))
            #expect(log.commitCount == commitsBefore + 1, "one transaction")
            let stored = try await log.everything()
            #expect(stored.map(\.position) == Array(1...70))
            #expect(stored.map(\.data) == events.map(\.data), "every byte of every event")
            #expect(try await log.store.read(matching: EventQuery(tags: ["big:69"]), after: 0, limit: 10).events.map(\.position) == [70])
            #expect(try await log.verify().isHealthy)
        }
    }

    @Test(arguments: Backend.available)
    func recordKeepsEveryFieldOfTheEventAndItsCommand(_ backend: Backend) async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000.123456)
        try await withLog(backend, configure: { $0.clock = { now } }) { log in
            let metadata = AppendMetadata(commandID: UUID(), correlationID: UUID(), causationID: UUID(), actor: "user-7")
            let proposed = ProposedEvent(streamID: "house-x", type: "household.taskCompleted", schemaVersion: 3,
                                         tags: ["house:x", "user:7"], data: Data(#"{"points":5,"text":"naïve ✓"}"#.utf8))
            _ = try await log.store.append(AppendRequest(events: [proposed], metadata: metadata))
            let stored = try #require(try await log.store.readAll(from: 1, direction: .forward, limit: 1).first)
            #expect(stored.position == 1 && stored.streamID == "house-x" && stored.category == "house")
            #expect(stored.type == "household.taskCompleted" && stored.schemaVersion == 3)
            #expect(stored.tags == ["house:x", "user:7"] && stored.data == proposed.data)
            #expect(stored.actor == "user-7" && stored.commandID == metadata.commandID)
            #expect(stored.correlationID == metadata.correlationID && stored.causationID == metadata.causationID)
            #expect(abs(stored.recordedAt.timeIntervalSince(now)) < 0.000_001)
        }
    }

    @Test(arguments: Backend.available)
    func recordedAtNeverGoesBackwardsWhenTheClockDoes(_ backend: Backend) async throws {
        let times = TimeSource([Date(timeIntervalSince1970: 2_000), Date(timeIntervalSince1970: 1_000)])
        try await withLog(backend, configure: { $0.clock = { times.next() } }) { log in
            _ = try await log.store.append(request([event("s-1")]))
            _ = try await log.store.append(request([event("s-1")]))
            let all = try await log.everything()
            #expect(all.count == 2 && all[1].recordedAt >= all[0].recordedAt)
        }
    }

    @Test(arguments: Backend.available)
    func expectedVersionsAreCheckedAndAFailedAppendWritesNothing(_ backend: Backend) async throws {
        try await withLog(backend) { log in
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
            #expect(try await store.headPosition() == 3, "failed appends wrote nothing")
        }
    }

    @Test(arguments: Backend.available)
    func aMultiStreamAppendIsAllOrNothing(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            _ = try await store.append(request([event("b-1")]))
            let refused = UUID()
            await #expect(throws: EventLogError.wrongExpectedVersion(streamID: "b-1", expected: .noStream, actual: 0)) {
                try await store.append(request([event("a-1"), event("b-1")], expect: ["a-1": .noStream, "b-1": .noStream], commandID: refused))
            }
            #expect(try await store.streamVersion("a-1") == nil)
            #expect(try await store.streamVersion("b-1") == 0)
            #expect(try await log.everything().count == 1)
            #expect(try await store.appendResult(ofCommand: refused) == nil, "not even its command was recorded")
        }
    }

    @Test(arguments: Backend.available)
    func aRepeatedCommandIDIsAReplayAndAReusedOneIsRefused(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            let id = UUID()
            let metadata = AppendMetadata(commandID: id, actor: "tester", fingerprint: Data([1, 2, 3]))
            let first = try await store.append(AppendRequest(events: [event("s-1"), event("s-2")], metadata: metadata))
            let again = try await store.append(AppendRequest(events: [event("s-1"), event("s-2")], metadata: metadata))
            #expect(again == AppendResult(firstPosition: first.firstPosition, lastPosition: first.lastPosition, isReplay: true,
                                          fingerprint: Data([1, 2, 3])))
            #expect(try await store.appendResult(ofCommand: id) == again)
            var other = metadata
            other.fingerprint = Data([9])
            await #expect(throws: EventLogError.commandIDReused(commandID: id)) {
                try await store.append(AppendRequest(events: [event("s-1")], metadata: other))
            }
            #expect(try await store.headPosition() == 2, "neither the replay nor the reuse appended")
            // An append of no events records its command too: its retry is a replay.
            let empty = UUID()
            let none = try await store.append(request([], commandID: empty))
            #expect(none.eventCount == 0 && none.firstPosition == 3)
            #expect(try await store.append(request([], commandID: empty)).isReplay)
        }
    }

    @Test(arguments: Backend.available)
    func anAppendConditionRefusesWhenAMatchingEventFollowsItsPosition(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            let claim = EventQuery(types: ["account.registered"], tags: ["email:ann@example.org"])
            _ = try await store.append(request([event("account-1", "account.registered", tags: ["email:ann@example.org", "user:1"])],
                                               condition: AppendCondition(failIfEventsMatch: claim, after: 0)))
            _ = try await store.append(request([event("other-1", "other.happened", tags: ["email:ann@example.org"])]))
            await #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 1, type: "account.registered", streamID: "account-1")) {
                try await store.append(request([event("account-2", "account.registered", tags: ["email:ann@example.org"])],
                                               condition: AppendCondition(failIfEventsMatch: claim, after: 0)))
            }
            // After the match it no longer conflicts; an event of another type with the tag never did.
            _ = try await store.append(request([event("account-3", "account.registered", tags: ["email:bob@example.org"])],
                                               condition: AppendCondition(failIfEventsMatch: claim, after: 1)))
            // Every tag of an item must be present; any item may match; types alone match too.
            let twoTags = EventQuery(tags: ["email:ann@example.org", "user:2"])
            _ = try await store.append(request([event("s-1")], condition: AppendCondition(failIfEventsMatch: twoTags, after: 0)))
            let either = EventQuery(items: [.init(tags: ["nothing:here"]), .init(types: ["other.happened"])])
            await #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 2, type: "other.happened", streamID: "other-1")) {
                try await store.append(request([event("s-1")], condition: AppendCondition(failIfEventsMatch: either, after: 0)))
            }
            let anything = EventQuery(items: [.init()])
            await #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 4, type: "test.happened", streamID: "s-1")) {
                try await store.append(request([event("s-1")], condition: AppendCondition(failIfEventsMatch: anything, after: 3)))
            }
            let found = try await store.read(matching: claim, after: 0, limit: 10)
            #expect(found.events.map(\.position) == [1] && found.checkedUpTo == 4)
            #expect(try await store.read(matching: either, after: 0, limit: 10).events.map(\.position) == [2])
        }
    }

    @Test(arguments: Backend.available)
    func aConditionNeedsEveryTagOfAnItemAndAnyItemOfTheQuery(_ backend: Backend) async throws {
        try await withLog(backend) { log in
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
    }

    @Test(arguments: Backend.available)
    func requestsInOneBatchSeeTheirEarlierBatchMates(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let claim = EventQuery(tags: ["email:ann@example.org"])
            let first = request([event("account-1", "account.registered", tags: ["email:ann@example.org"])],
                                condition: AppendCondition(failIfEventsMatch: claim, after: 0))
            let second = request([event("account-2", "account.registered", tags: ["email:ann@example.org"])],
                                 condition: AppendCondition(failIfEventsMatch: claim, after: 0))
            let versioned = request([event("account-1")], expect: ["account-1": .exact(0)])
            let outcomes = await log.store.append(contentsOf: [first, second, versioned])
            #expect((try? outcomes[0].get()) == AppendResult(firstPosition: 1, lastPosition: 1))
            #expect(outcomes[1] == .failure(.appendConditionFailed(conflictingPosition: 1, type: "account.registered", streamID: "account-1")))
            #expect((try? outcomes[2].get()) == AppendResult(firstPosition: 2, lastPosition: 2), "it saw version 0 written in its batch")
        }
    }

    @Test(arguments: Backend.available)
    func aFollowingAppendNeedsItsPredecessorToHaveAppendedAfterTheFold(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            let house = EventQuery(tags: ["house:1"])
            let leader = UUID()
            let lead = request([event("house-1", tags: ["house:1"])], condition: AppendCondition(failIfEventsMatch: house, after: 0),
                               commandID: leader)
            var follower = request([event("house-1", tags: ["house:1"])], condition: AppendCondition(failIfEventsMatch: house, after: 0))
            follower.follows = leader
            let outcomes = await store.append(contentsOf: [lead, follower])
            #expect(outcomes.map { try? $0.get().lastPosition } == [1, 2], "the chain's second link checks from the first's end")
            // A predecessor that never appended, or was already in the log before the fold: refused.
            var orphan = request([event("house-1")], condition: AppendCondition(failIfEventsMatch: house, after: 2))
            orphan.follows = UUID()
            await #expect(throws: EventLogError.predecessorMissing(commandID: orphan.follows!)) { try await store.append(orphan) }
            var stale = request([event("house-1")], condition: AppendCondition(failIfEventsMatch: house, after: 2))
            stale.follows = leader
            await #expect(throws: EventLogError.predecessorMissing(commandID: leader)) { try await store.append(stale) }
            let head = try await store.headPosition()
            #expect(head == 2)
        }
    }

    @Test(arguments: Backend.available)
    func aRequestOverALimitIsRefusedAloneAndNamesTheLimit(_ backend: Backend) async throws {
        try await withLog(backend, configure: { $0.limits.eventDataBytesMax = 64 }) { log in
            let big = ProposedEvent(streamID: "s-1", type: "t", data: Data(repeating: 0x61, count: 65))
            let outcomes = await log.store.append(contentsOf: [request([event("s-1")]), request([big]), request([event("s-1")])])
            #expect(outcomes[1] == .failure(.limitExceeded(limit: "eventDataBytesMax", value: 65, max: 64)))
            #expect(outcomes.map { try? $0.get().lastPosition } == [1, nil, 2])
            await #expect(throws: EventLogError.invalidArgument(field: "streamID", reason: #""nodash" must be named category-id"#)) {
                try await log.store.append(request([event("nodash")]))
            }
        }
    }
}
