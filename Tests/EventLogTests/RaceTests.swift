import Foundation
import Testing
@testable import EventLog

/// Optimistic concurrency under contention: exactly one winner per decision, nothing lost or doubled.
@Suite("Races")
struct RaceTests {
    @Test func sixtyFourTasksRacingExpectedVersionsOnOneStream() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let rounds = 20
        // Every task tries to append each version; per version exactly one may win.
        let wins = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for task in 0..<64 {
                group.addTask {
                    var won: [UInt64] = []
                    while true {
                        let current = try store.streamVersion("race-1")
                        let next = current.map { $0 + 1 } ?? 0
                        if next >= UInt64(rounds) { return won }
                        do {
                            _ = try await store.append(request(
                                [event("race-1", #"{"task":\#(task)}"#)],
                                expect: ["race-1": current.map { .exact($0) } ?? .noStream]
                            ))
                            won.append(next)
                        } catch EventLogError.wrongExpectedVersion {
                            continue
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(wins.sorted() == Array(0..<UInt64(rounds)), "each version won exactly once")
        let stream = try store.readStream("race-1", limit: 100)
        #expect(stream.map(\.streamVersion) == Array(0..<UInt64(rounds)))
        #expect(try store.headPosition() == UInt64(rounds))
    }

    @Test func tagConditionsRacingForOneUsernameHaveOneWinner() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let query = EventQuery(types: ["account.registered"], tags: ["username:ann"])
        let winners = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<64 {
                group.addTask {
                    let seen = try store.read(matching: query, limit: 10)
                    guard seen.events.isEmpty else { return 0 }
                    do {
                        _ = try await store.append(request(
                            [event("account-\(task)", "account.registered", tags: ["username:ann"])],
                            condition: AppendCondition(failIfEventsMatch: query, after: seen.checkedUpTo)
                        ))
                        return 1
                    } catch EventLogError.appendConditionFailed {
                        return 0
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(winners == 1)
        #expect(try store.readTag("username:ann", limit: 100).count == 1)
    }
}
