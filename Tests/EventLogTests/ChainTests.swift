import Foundation
import Testing
@testable import EventLog

/// Chained appends (`AppendRequest.follows`): decisions made one after the other on one boundary,
/// each on the state the previous ones leave, submitted together and checked link by link.
@Suite("Chained appends", .timeLimit(.minutes(3)))
struct ChainTests {
    private static let query = EventQuery(tags: ["house:1"])

    /// A chain of `count` links deciding on `house:1` from position `after`.
    private func chain(_ count: Int, after: UInt64) -> [AppendRequest] {
        var previous: UUID?
        return (0..<count).map { index in
            let id = UUID()
            defer { previous = id }
            return AppendRequest(
                events: [event("house-1", "house.choreDone", tags: ["house:1"])],
                condition: AppendCondition(failIfEventsMatch: Self.query, after: after),
                metadata: AppendMetadata(commandID: id, actor: "member-\(index)"), follows: previous)
        }
    }

    @Test func aChainLandsWholeInOneCommit() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let outcomes = await log.store.append(contentsOf: chain(4, after: 0))
        #expect(try outcomes.map { try $0.get().lastPosition } == [1, 2, 3, 4])
        #expect(log.store.commitCount == 1, "the four links shared one commit")
        #expect(try log.store.verify().isHealthy)
    }

    @Test func withoutFollowsTheSecondDecisionConflictsWithTheFirst() async throws {
        let log = try TestLog()
        defer { log.remove() }
        var links = chain(2, after: 0)
        links[1].follows = nil
        let outcomes = await log.store.append(contentsOf: links)
        #expect(try outcomes[0].get().lastPosition == 1)
        #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 1, type: "house.choreDone", streamID: "house-1")) {
            try outcomes[1].get()
        }
    }

    @Test func aForeignEventBetweenLinksFailsTheLinksAfterIt() async throws {
        let log = try TestLog()
        defer { log.remove() }
        var links = chain(3, after: 0)
        // Someone else's matching event lands between the first and second link.
        let foreign = request([event("house-1", "house.renamed", tags: ["house:1"])])
        links.insert(foreign, at: 1)
        let outcomes = await log.store.append(contentsOf: links)
        #expect(try outcomes[0].get().lastPosition == 1 && outcomes[1].get().lastPosition == 2)
        #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 2, type: "house.renamed", streamID: "house-1")) {
            try outcomes[2].get()
        }
        #expect(throws: EventLogError.predecessorMissing(commandID: links[2].metadata.commandID)) { try outcomes[3].get() }
        #expect(try log.store.headPosition() == 2, "nothing of the broken chain after the foreign event")
    }

    @Test func aPredecessorThatNeverAppendedFailsItsFollower() async throws {
        let log = try TestLog()
        defer { log.remove() }
        var links = chain(2, after: 0)
        let ghost = UUID()
        links[1].follows = ghost
        let outcomes = await log.store.append(contentsOf: links)
        #expect(try outcomes[0].get().lastPosition == 1)
        #expect(throws: EventLogError.predecessorMissing(commandID: ghost)) { try outcomes[1].get() }
    }

    /// A predecessor the log already held before the fold was replayed, not appended by the
    /// chain: its follower decided on events that never happened again, and must decide anew.
    @Test func aPredecessorAppendedBeforeTheFoldDoesNotCount() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let earlier = chain(1, after: 0)[0]
        _ = try await log.store.append(earlier)
        var links = chain(2, after: 1)
        links[0] = earlier  // decided again: the log replays it
        links[0].condition = AppendCondition(failIfEventsMatch: Self.query, after: 1)
        links[1].follows = earlier.metadata.commandID
        let outcomes = await log.store.append(contentsOf: links)
        #expect(try outcomes[0].get() == AppendResult(firstPosition: 1, lastPosition: 1, isReplay: true))
        #expect(throws: EventLogError.predecessorMissing(commandID: earlier.metadata.commandID)) { try outcomes[1].get() }
        #expect(try log.store.headPosition() == 1)
    }

    @Test func aRequestOverALimitFailsAloneAndTheRestStayInOrder() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let huge = request([event("s-1", "test.big", String(repeating: "x", count: log.store.options.limits.eventDataBytesMax + 1))])
        let outcomes = await log.store.append(contentsOf: [request([event("s-1")]), huge, request([event("s-2")])])
        #expect(try outcomes[0].get().lastPosition == 1 && outcomes[2].get().lastPosition == 2)
        guard case .failure(.limitExceeded) = outcomes[1] else {
            Issue.record("the oversize request is refused by its limit, not \(outcomes[1])")
            return
        }
    }
}
