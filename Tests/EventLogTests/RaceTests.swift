import Foundation
import Testing
@testable import EventLog

/// Optimistic concurrency under contention: exactly one winner per decision, nothing lost or
/// doubled. Every task reads, then waits at a barrier until all have read, then appends: all
/// decide on the same state, so the races happen by construction, and the losers are counted.
@Suite("Races", .timeLimit(.minutes(3)))
struct RaceTests {
    @Test func sixtyFourTasksRacingExpectedVersionsOnOneStream() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let tasks = 64, rounds = 20
        let barrier = Barrier(parties: tasks)
        // Every task tries to append each version; per version exactly one may win.
        let tallies = try await withThrowingTaskGroup(of: (won: [UInt64], lost: Int).self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var won: [UInt64] = [], lost = 0
                    while true {
                        await barrier.arrive()  // every append of the last round is done
                        let current = try store.streamVersion("race-1")
                        await barrier.arrive()  // every task has read the same version
                        let next = current.map { $0 + 1 } ?? 0
                        if next >= UInt64(rounds) { return (won, lost) }
                        do {
                            _ = try await store.append(request(
                                [event("race-1", #"{"task":\#(task)}"#)],
                                expect: ["race-1": current.map { .exact($0) } ?? .noStream]
                            ))
                            won.append(next)
                        } catch EventLogError.wrongExpectedVersion(let streamID, let expected, let actual) {
                            // The loser saw the version its round's winner wrote; any other error fails the test.
                            #expect(streamID == "race-1" && actual == next && expected == (current.map { .exact($0) } ?? .noStream))
                            lost += 1
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let wins = tallies.flatMap(\.won)
        #expect(wins.sorted() == Array(0..<UInt64(rounds)), "each version won exactly once")
        #expect(tallies.map(\.lost).reduce(0, +) == (tasks - 1) * rounds, "every other task lost every round")
        let stream = try store.readStream("race-1", limit: 100)
        #expect(stream.map(\.streamVersion) == Array(0..<UInt64(rounds)))
        #expect(try store.headPosition() == UInt64(rounds))
    }

    @Test func tagConditionsRacingForOneUsernameHaveOneWinner() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let tasks = 64
        let barrier = Barrier(parties: tasks)
        let query = EventQuery(types: ["account.registered"], tags: ["username:ann"])
        let outcomes = try await withThrowingTaskGroup(of: Result<AppendResult, EventLogError>.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    let seen = try store.read(matching: query, limit: 10)
                    await barrier.arrive()  // every task decided on the empty log
                    #expect(seen.events.isEmpty && seen.checkedUpTo == 0)
                    return await store.append(contentsOf: [request(
                        [event("account-\(task)", "account.registered", tags: ["username:ann"])],
                        condition: AppendCondition(failIfEventsMatch: query, after: seen.checkedUpTo)
                    )])[0]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let winners = outcomes.compactMap { try? $0.get() }
        #expect(winners.count == 1)
        let losers = outcomes.compactMap { outcome -> EventLogError? in
            if case let .failure(error) = outcome { error } else { nil }
        }
        #expect(losers.count == tasks - 1, "every other task lost the race")
        for loser in losers {
            guard case let .appendConditionFailed(position, type, _) = loser else {
                Issue.record("a loser failed with \(loser), not the condition")
                continue
            }
            #expect(position == winners.first?.firstPosition && type == "account.registered")
        }
        #expect(try store.readTag("username:ann", limit: 100).count == 1)
    }
}

/// Suspends each arriving task until `parties` have arrived, then lets them all go; reusable.
actor Barrier {
    let parties: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) {
        self.parties = parties
    }

    func arrive() async {
        if waiting.count + 1 == parties {
            let released = waiting
            waiting = []
            for task in released { task.resume() }
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
