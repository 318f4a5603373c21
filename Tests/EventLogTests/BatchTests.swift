import Foundation
import LMDB
import Testing
@testable import EventLog

/// Group commit: requests of one batch share a transaction but not their fate.
@Suite("Batch", .timeLimit(.minutes(3)))
struct BatchTests {
    @Test func eachRequestSeesEarlierBatchMatesAndAFailureSparesTheOthers() throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let claim = { (stream: String) in
            request([event(stream, "user.claimed", tags: ["username:ann"])],
                    condition: AppendCondition(failIfEventsMatch: EventQuery(tags: ["username:ann"]), after: 0))
        }
        let batch = [
            request([event("s-1")], expect: ["s-1": .noStream]),
            request([event("s-1")], expect: ["s-1": .noStream]),  // sees the first: fails
            request([event("s-1")], expect: ["s-1": .exact(0)]),  // sees the first: succeeds
            claim("user-1"),
            claim("user-2"),  // sees user-1's claim: fails
        ]
        let outcomes = try store.environment.write { txn in
            var applier = BatchApplier(databases: store.databases, transaction: txn, head: 0, chainHash: ChainHash.genesis, recordedAtMicroseconds: 1)
            return try batch.map { try applier.apply($0) }
        }
        #expect(try outcomes[0].get() == AppendResult(firstPosition: 1, lastPosition: 1))
        #expect(throws: EventLogError.wrongExpectedVersion(streamID: "s-1", expected: .noStream, actual: 0)) { try outcomes[1].get() }
        #expect(try outcomes[2].get() == AppendResult(firstPosition: 2, lastPosition: 2))
        #expect(try outcomes[3].get() == AppendResult(firstPosition: 3, lastPosition: 3))
        #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 3, type: "user.claimed", streamID: "user-1")) {
            try outcomes[4].get()
        }
        #expect(try store.verify().isHealthy)
    }

    @Test func manyConcurrentAppendsShareCommitsAndAllLand() async throws {
        let log = try TestLog(durable: true)
        defer { log.remove() }
        let store = log.store
        let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
            for writer in 0..<200 { group.addTask { try await store.append(request([event("w-\(writer % 10)")])) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.map(\.firstPosition)) == Set(1...200))
        // 200 appends arriving while fsyncs are in flight queue behind them; a commit each would
        // mean no group commit (GroupCommitTests forces one batch and counts it exactly).
        #expect(store.commitCount < 200, "\(store.commitCount) commits for 200 appends")
        let report = try store.verify()
        #expect(report.isHealthy && report.eventsChecked == 200)
    }
}
