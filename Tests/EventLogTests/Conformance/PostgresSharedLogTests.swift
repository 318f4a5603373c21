import Foundation
import EventLog
import PostgresEventLog
import TestSupport
import Testing

/// What only the PostgreSQL backend promises: many servers on one log (SPEC §3a), and durability
/// when the appending process is killed.
@Suite("PostgreSQL: a log shared by servers", .timeLimit(.minutes(3)), .enabled(if: Backend.available.contains(.postgres)))
struct PostgresSharedLogTests {
    @Test func twoServersAppendingAtOnceShareOneGapFreeLogAndOneTagClaim() async throws {
        try await withLog(.postgres) { log in
            let peer = try await log.peer()
            let servers = [log.store, peer.store]
            let claim = EventQuery(tags: ["email:ann@example.org"])
            let writes = try await withThrowingTaskGroup(of: Int.self) { group in
                for writer in 0..<32 {
                    group.addTask {
                        let store = servers[writer % 2]
                        for index in 0..<10 {
                            _ = try await store.append(request([event("writer-\(writer)")],
                                                               expect: ["writer-\(writer)": index == 0 ? .noStream : .exact(UInt64(index - 1))]))
                        }
                        return 10
                    }
                }
                return try await group.reduce(0, +)
            }
            let claims = await ConformanceRaceTests.race { writer in
                try await servers[writer % 2].append(request(
                    [event("account-\(writer)", "account.registered", tags: ["email:ann@example.org"])],
                    condition: AppendCondition(failIfEventsMatch: claim, after: 0)
                ))
            }
            #expect(claims.successes == 1, "one claim across both servers")
            let all = try await log.everything()
            #expect(all.map(\.position) == Array(1...UInt64(writes + 1)))
            #expect(try await peer.store.headPosition() == UInt64(writes + 1))
            let report = try await log.verify()
            #expect(report.isHealthy, "\(report.problems)")
            await peer.close()
        }
    }

    @Test func anotherServersSubscriptionIsToldOfAppendsWithoutPolling() async throws {
        try await withLog(.postgres) { log in
            // A poll once a minute: what arrives within seconds came through LISTEN/NOTIFY.
            let peer = try await log.peer { $0.pollIntervalMilliseconds = 60_000 }
            _ = try await log.store.append(request([event("s-1")]))
            let following = Task { try await firstEvents(of: peer.store.subscribe(from: 1), count: 6, seconds: 15) }
            try await Task.sleep(for: .milliseconds(300))  // the subscription reads position 1 and waits at the head
            let started = ContinuousClock.now
            for _ in 0..<5 { _ = try await log.store.append(request([event("s-1")])) }
            #expect(try await following.value.map(\.position) == Array(1...6))
            #expect(ContinuousClock.now - started < .seconds(10), "notified, not polled")
            await peer.close()
        }
    }

    @Test func aCommandIDRetriedThroughTheOtherServerIsAReplay() async throws {
        try await withLog(.postgres) { log in
            let peer = try await log.peer()
            let id = UUID()
            let first = try await log.store.append(request([event("s-1")], commandID: id))
            let retried = try await peer.store.append(request([event("s-1")], commandID: id))
            #expect(retried.isReplay && retried.lastPosition == first.lastPosition)
            #expect(try await log.store.headPosition() == 1)
            await peer.close()
        }
    }

    @Test func aRewrittenRecordOrChainHashFailsVerification() async throws {
        try await withLog(.postgres) { log in
            for _ in 0..<5 { _ = try await log.store.append(request([event("s-1")])) }
            #expect(try await log.verify().isHealthy)
            try await PrivatePostgres.execute(on: log.location, "UPDATE logbook_events SET chain_hash = '\\x00' WHERE position = 3")
            let report = try await log.verify()
            #expect(!report.isHealthy && report.firstDivergingPosition == 3, "\(report.problems)")
        }
    }

    @Test func everyAcknowledgedAppendSurvivesSIGKILLOfTheWritingProcess() async throws {
        let url = try await PrivatePostgres.newDatabase()
        var acknowledged: [UInt64: UUID] = [:]
        for round in 0..<4 {
            let acks = try await CrashWriterRun.untilKilled(log: url, killAfter: .milliseconds(300 + 100 * round))
            #expect(acks.count > 0, "round \(round) appended something before the kill")
            for (position, id) in acks {
                #expect(acknowledged[position] == nil, "position \(position) acknowledged twice")
                acknowledged[position] = id
            }
        }
        let store = try await PostgresEventStore.connect(to: PostgresLocation(url: url))
        let report = try await store.verify()
        #expect(report.isHealthy, "\(report.problems)")
        for (position, id) in acknowledged {
            #expect(try await store.event(at: position)?.commandID == id, "acknowledged position \(position) survived")
        }
        for writer in 0..<4 {
            let versions = try await store.readStream("crash-\(writer)", from: 0, direction: .forward, limit: 1_000).map(\.streamVersion)
            #expect(versions == Array(0..<UInt64(versions.count)), "writer \(writer)'s stream resumed from its stored version")
        }
        await store.close()
    }
}
