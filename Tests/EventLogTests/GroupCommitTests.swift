import Foundation
import LMDB
import Testing
@testable import EventLog

/// Group commit through the writer's queue: appends that queue while a commit is in flight share
/// the next one, and a request that fails, on its conditions or in storage, fails alone.
///
/// Each test holds the writer at its clock (read once per commit, before the transaction) while
/// a first append is in flight, queues the requests behind it, and lets go once all are queued:
/// they are then one batch, by construction rather than by luck.
@Suite("Group commit", .timeLimit(.minutes(3)))
struct GroupCommitTests {
    /// Appends each request from its own task, as separate clients would, behind a held commit;
    /// returns the log (to remove) and their outcomes in the order given, once the batch has
    /// committed in one transaction.
    private func appendAsOneBatch(
        _ requests: [AppendRequest], configure: (inout EventStoreOptions) -> Void = { _ in },
        seed: (LMDBEventStore) async throws -> Void = { _ in }
    ) async throws -> (log: TestLog, outcomes: [Result<AppendResult, EventLogError>]) {
        let gate = WriterGate()
        let log = try TestLog { options in
            configure(&options)
            options.clock = { gate.now() }
        }
        let store = log.store
        try await seed(store)
        let commitsBefore = store.commitCount
        gate.hold()
        let blocker = Task { try await store.append(request([event("blocker-1")])) }
        try await eventually("the writer waits at the gate") { gate.writerWaits }
        let appends = requests.map { request in Task { await store.append(contentsOf: [request])[0] } }
        try await eventually("every request is queued") { store.queuedAppends == requests.count }
        gate.release()
        _ = try await blocker.value
        var outcomes: [Result<AppendResult, EventLogError>] = []
        for append in appends { outcomes.append(await append.value) }
        #expect(store.commitCount - commitsBefore == 2, "the blocker's commit, then one for the whole batch")
        #expect(try store.verify().isHealthy)
        return (log, outcomes)
    }

    @Test func appendsQueuedBehindACommitShareTheNext() async throws {
        let (log, outcomes) = try await appendAsOneBatch((0..<32).map { request([event("w-\($0)")]) })
        defer { log.remove() }
        let positions = try outcomes.map { try $0.get().firstPosition }
        #expect(Set(positions) == Set(2...33), "every append landed, after the blocker")
        #expect(try log.store.everything().count == 33)
    }

    @Test func aFailedConditionSparesItsBatchMates() async throws {
        let requests = [
            request([event("a-1")]),
            request([event("s-1")], expect: ["s-1": .noStream]),
            request([event("b-1")]),
            request([event("user-2", tags: ["username:ann"])],
                    condition: AppendCondition(failIfEventsMatch: EventQuery(tags: ["username:ann"]), after: 0)),
            request([event("c-1")]),
        ]
        let (log, outcomes) = try await appendAsOneBatch(requests, seed: { store in
            _ = try await store.append(request([event("s-1", tags: ["username:ann"])]))
        })
        defer { log.remove() }
        #expect(throws: EventLogError.wrongExpectedVersion(streamID: "s-1", expected: .noStream, actual: 0)) { try outcomes[1].get() }
        #expect(throws: EventLogError.appendConditionFailed(conflictingPosition: 1, type: "test.happened", streamID: "s-1")) {
            try outcomes[3].get()
        }
        let landed = try [0, 2, 4].map { try outcomes[$0].get().eventCount }
        #expect(landed == [1, 1, 1])
        let streams = try log.store.everything().map(\.streamID)
        #expect(streams.sorted() == ["a-1", "b-1", "blocker-1", "c-1", "s-1"])
    }

    /// A tag longer than LMDB's key limit passes limits raised past it, and the storage refuses
    /// the index key: that request's events (the first of which was already written in the
    /// transaction) are undone, and its batch-mates land.
    @Test func aRequestTheStorageRefusesFailsAloneAndLeavesNothing() async throws {
        let longTag = String(repeating: "t", count: 600)
        let refused = request([event("x-1"), event("y-1", tags: [longTag])])
        let (log, outcomes) = try await appendAsOneBatch(
            [request([event("a-1")]), refused, request([event("b-1")])], configure: { $0.limits.tagBytesMax = 1_000 })
        defer { log.remove() }
        let landed = try [0, 2].map { try outcomes[$0].get().eventCount }
        #expect(landed == [1, 1])
        guard case .failure(.storage) = outcomes[1] else {
            Issue.record("expected a storage failure, got \(outcomes[1])")
            return
        }
        let versions = try [log.store.streamVersion("x-1"), log.store.streamVersion("y-1")]
        #expect(versions == [nil, nil])
        let command = try log.store.appendResult(ofCommand: refused.metadata.commandID)
        #expect(command == nil)
        // Each request was queued from a task of its own, so a-1 and b-1 may land in either order.
        let events = try log.store.everything()
        #expect(events.map(\.position) == [1, 2, 3], "gap-free, without the refused request")
        #expect(events.first?.streamID == "blocker-1" && Set(events.dropFirst().map(\.streamID)) == ["a-1", "b-1"])
        // Its first event's hash was written in its nested transaction and undone with it: b-1
        // chains from a-1, and no hash is left for a position that does not exist.
        let report = try log.store.verify()
        #expect(report.isHealthy && report.chainHashesChecked == 3, "\(report.problems)")
    }

    /// A map at its largest has no room for three 1 MiB events: that request fails with
    /// `mapFull`, and the small requests of its batch still fit and land.
    @Test func aRequestTooBigForTheMapFailsAlone() async throws {
        let mebibyte = Data(#""\#(String(repeating: "x", count: (1 << 20) - 2))""#.utf8)
        let huge = request((0..<3).map { ProposedEvent(streamID: "big-\($0)", type: "t", data: mebibyte) })
        let (log, outcomes) = try await appendAsOneBatch([request([event("a-1")]), huge, request([event("b-1")])], configure: { options in
            options.mapSizeBytes = 2 << 20
            options.mapSizeMaxBytes = 2 << 20
        })
        defer { log.remove() }
        #expect(throws: EventLogError.storage(.mapFull)) { try outcomes[1].get() }
        let landed = try [0, 2].map { try outcomes[$0].get().eventCount }
        #expect(landed == [1, 1])
        // Each request was queued from a task of its own, so a-1 and b-1 may land in either order.
        let events = try log.store.everything()
        #expect(events.map(\.position) == [1, 2, 3])
        #expect(events.first?.streamID == "blocker-1" && Set(events.dropFirst().map(\.streamID)) == ["a-1", "b-1"])
    }
}

/// The store's clock, which the writer reads once per commit before its transaction: held, it
/// keeps the writer from committing, so that appends queue behind the batch in flight.
final class WriterGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var holding = false
    private var waiting = false

    func hold() {
        condition.withLock { holding = true }
    }

    func release() {
        condition.withLock {
            holding = false
            condition.broadcast()
        }
    }

    /// True while the writer waits at the gate.
    var writerWaits: Bool { condition.withLock { waiting } }

    func now() -> Date {
        condition.withLock {
            while holding {
                waiting = true
                condition.wait()
            }
            waiting = false
        }
        return Date()
    }
}

/// Waits until `condition` holds, failing after two minutes: in the full suite on two cores the
/// cooperative pool can be busy with other tests for most of a minute before a queued task
/// starts (seen). The limit is there to end a hang, not to time the writer.
func eventually(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(120)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw EventuallyTimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// `eventually` ran out of time.
struct EventuallyTimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting until \(what)" }
}
