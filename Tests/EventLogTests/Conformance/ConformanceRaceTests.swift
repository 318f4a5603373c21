import Foundation
import EventLog
import Testing

/// Many writers at once, on every backend: conditions hold under contention, positions stay
/// gap-free, and concurrent appends share commits.
@Suite("Conformance: races", .timeLimit(.minutes(3)))
struct ConformanceRaceTests {
    static let writers = 64

    @Test(arguments: Backend.available)
    func sixtyFourWritersOnTheirOwnStreamsLeaveAGapFreeLogInFewerCommits(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            let commitsBefore = log.commitCount
            let results = try await withThrowingTaskGroup(of: [AppendResult].self) { group in
                for writer in 0..<Self.writers {
                    group.addTask {
                        var results: [AppendResult] = []
                        for version in 0..<5 {
                            results.append(try await store.append(request(
                                [event("writer-\(writer)")], expect: ["writer-\(writer)": version == 0 ? .noStream : .exact(UInt64(version - 1))]
                            )))
                        }
                        return results
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let positions = results.map(\.lastPosition).sorted()
            #expect(positions == Array(1...UInt64(Self.writers * 5)), "every append landed once, no gap")
            let commits = log.commitCount - commitsBefore
            #expect(commits < Self.writers * 5, "appends waiting together shared commits (\(commits) commits)")
            let all = try await log.everything()
            for writer in 0..<Self.writers {
                #expect(all.filter { $0.streamID == "writer-\(writer)" }.map(\.streamVersion) == [0, 1, 2, 3, 4])
            }
            let report = try await log.verify()
            #expect(report.isHealthy && report.eventsChecked == Self.writers * 5, "\(report.problems)")
        }
    }

    @Test(arguments: Backend.available)
    func ofSixtyFourWritersExpectingTheSameVersionExactlyOneWins(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            _ = try await store.append(request([event("contested-1")]))
            let outcomes = await Self.race { _ in
                try await store.append(request([event("contested-1")], expect: ["contested-1": .exact(0)]))
            }
            #expect(outcomes.successes == 1)
            #expect(outcomes.failures.allSatisfy {
                $0 == .wrongExpectedVersion(streamID: "contested-1", expected: .exact(0), actual: 1)
            }, "the others were refused for the version, not for anything else")
            #expect(try await store.streamVersion("contested-1") == 1)
        }
    }

    @Test(arguments: Backend.available)
    func ofSixtyFourWritersClaimingOneTagExactlyOneWins(_ backend: Backend) async throws {
        try await withLog(backend) { log in
            let store = log.store
            let claim = EventQuery(tags: ["email:ann@example.org"])
            let outcomes = await Self.race { writer in
                try await store.append(request([event("account-\(writer)", "account.registered", tags: ["email:ann@example.org"])],
                                               condition: AppendCondition(failIfEventsMatch: claim, after: 0)))
            }
            #expect(outcomes.successes == 1)
            #expect(outcomes.failures.count == Self.writers - 1)
            let claimed = try await store.read(matching: claim, after: 0, limit: 100)
            #expect(claimed.events.count == 1)
        }
    }

    struct Outcomes {
        var successes = 0
        var failures: [EventLogError] = []
    }

    /// Starts every writer at once (they wait at a gate) and counts the outcomes.
    static func race(_ attempt: @escaping @Sendable (Int) async throws -> AppendResult) async -> Outcomes {
        let gate = AsyncGate()
        return await withTaskGroup(of: Result<AppendResult, EventLogError>.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    await gate.wait()
                    do {
                        return .success(try await attempt(writer))
                    } catch {
                        return .failure(error as? EventLogError ?? .invalidArgument(field: "test", reason: "\(error)"))
                    }
                }
            }
            await gate.open(after: writers)
            var outcomes = Outcomes()
            for await outcome in group {
                switch outcome {
                case .success: outcomes.successes += 1
                case let .failure(error): outcomes.failures.append(error)
                }
            }
            return outcomes
        }
    }
}

/// Holds tasks until `open(after:)` has seen that many waiting, then lets them all go.
actor AsyncGate {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false
    private var arrivals: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0); arrivals.forEach { $0.resume() }; arrivals = [] }
    }

    func open(after count: Int) async {
        while waiting.count < count {
            await withCheckedContinuation { arrivals.append($0) }
        }
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}
