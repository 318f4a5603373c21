import Foundation
import Synchronization
import Testing
@testable import EventLog

/// The writer tells `EventStoreOptions.commitObserver` of every commit: its batch size, the
/// events it wrote by type (not a failed request's, not a replay's), and the commit's duration.
@Suite("Group commit reports", .timeLimit(.minutes(3)))
struct GroupCommitReportTests {
    @Test func eachCommitIsReportedWithItsBatchSizeAndTheEventsItWroteByType() async throws {
        let reports = Mutex<[GroupCommitReport]>([])
        let gate = WriterGate()
        let log = try TestLog(durable: true) { options in
            options.clock = { gate.now() }
            options.commitObserver = { report in reports.withLock { $0.append(report) } }
        }
        defer { log.remove() }
        let store = log.store
        gate.hold()
        let blocker = Task { try await store.append(request([event("blocker-1")])) }
        try await eventually("the writer waits at the gate") { gate.writerWaits }
        let replayed = UUID()
        let batch = [
            request([event("a-1", "test.a"), event("a-2", "test.a")], commandID: replayed),
            request([event("b-1", "test.b")]),
            request([event("blocker-1", "test.c")], expect: ["blocker-1": .noStream]),  // fails: the blocker made it
            request([event("a-3", "test.a")]),
        ]
        let appends = batch.map { request in Task { await store.append(contentsOf: [request])[0] } }
        try await eventually("every request is queued") { store.queuedAppends == batch.count }
        gate.release()
        _ = try await blocker.value
        var failures = 0
        for append in appends { if case .failure = await append.value { failures += 1 } }
        #expect(failures == 1)
        // A retry of a written command: a commit that writes nothing.
        let retry = try await store.append(request([event("a-1", "test.a"), event("a-2", "test.a")], commandID: replayed))
        #expect(retry.isReplay)

        let seen = reports.withLock { $0 }
        try #require(seen.count == 3, "\(seen)")
        #expect(seen[0].requests == 1 && seen[0].eventsByType == ["test.happened": 1])
        #expect(seen[1].requests == 4 && seen[1].eventsByType == ["test.a": 3, "test.b": 1], "the failed request wrote nothing")
        #expect(seen[2].requests == 1 && seen[2].eventsByType.isEmpty, "a replay writes nothing")
        #expect(seen.allSatisfy { $0.commitDuration > .zero && $0.commitDuration < .seconds(60) })
        #expect(store.commitCount == 3)
    }
}
