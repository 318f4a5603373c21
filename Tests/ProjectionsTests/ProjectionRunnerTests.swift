import EventLog
import EventSourcing
import Foundation
import Synchronization
import Testing
@testable import Projections

/// The live runner never ends quietly: a log read that fails is retried with backoff and shows
/// in its status meanwhile; a close or a cancel stops it and says so.
@Suite("Projection engine: the live runner", .timeLimit(.minutes(3)))
struct ProjectionRunnerTests {
    private func flakyEngine(_ setup: TestSetup) throws -> (FlakyLog, ProjectionEngine<FlakyLog>) {
        let log = FlakyLog(setup.log)
        let engine = try ProjectionEngine(log: log, dataDirectory: setup.directory, projections: [TypeCounts()], sync: .unsafeNever)
        return (log, engine)
    }

    @Test func aFailingLogReadIsRetriedWithBackoffAndShowsMeanwhile() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let (log, engine) = try flakyEngine(setup)
        let incidents = Incidents(engine)
        _ = try await engine.prepare()
        try await setup.append(5)
        log.failingReads.withLock { $0 = 1_000 }
        let live = Task { try await engine.runLive(retryDelayMin: .milliseconds(1), retryDelayMax: .milliseconds(8)) }
        defer { live.cancel() }
        while incidents.all.count < 5 { try await Task.sleep(for: .milliseconds(5)) }
        let failing = engine.runnerStatus
        #expect(failing.phase == .catchingUp && failing.logReadFailures >= 5)
        #expect(failing.logReadError == "event log: \(FlakyLog.ioError)")
        #expect(engine.projected.position == 0)

        log.failingReads.withLock { $0 = 0 }
        try await engine.waitUntilProjected(5, timeout: .seconds(5))
        #expect(try engine.read(TypeCounts()) { try $0.value(Int.self, at: "test.happened", in: "counts") } == 5)
        let recovered = try await statusAfterRecovery(engine)
        #expect(recovered.logReadError == nil && recovered.logReadFailures == 0 && recovered.phase == .running)
        let delays = incidents.all.compactMap { incident -> Duration? in
            if case let .logReadFailed(_, _, retryAfter) = incident { retryAfter } else { nil }
        }
        #expect(Array(delays.prefix(4)) == [.milliseconds(1), .milliseconds(2), .milliseconds(4), .milliseconds(8)], "doubling")
        #expect(delays.dropFirst(3).allSatisfy { $0 == .milliseconds(8) }, "up to the maximum")
        #expect(incidents.all.last.map { if case .logReadRecovered = $0 { true } else { false } } == true)
        // Still running, not returned: it goes on projecting.
        try await setup.append(1)
        try await engine.waitUntilProjected(6, timeout: .seconds(5))
    }

    /// A key store that does not answer (a shared one on PostgreSQL) is not the projection's
    /// fault: the batch is retried with backoff, nothing is marked failed, and once the keys
    /// answer every event is applied once.
    @Test func unavailableKeysRetryTheBatchInsteadOfFailingTheProjection() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let keys = KeysDown(failures: 4)
        let engine = try ProjectionEngine(log: setup.log, dataDirectory: setup.directory, projections: [keys, TypeCounts()], sync: .unsafeNever)
        let incidents = Incidents(engine)
        _ = try await engine.prepare()
        try await setup.append(3)
        let live = Task { try await engine.runLive(retryDelayMin: .milliseconds(1), retryDelayMax: .milliseconds(4)) }
        defer { live.cancel() }
        try await engine.waitUntilProjected(3, timeout: .seconds(10))
        #expect(keys.remaining.withLock { $0 } == 0, "the key store refused four times")
        #expect(try engine.read(keys) { try $0.value(Int.self, at: "applied", in: "seen") } == 3, "each event once")
        #expect(try count(engine) == 3, "the batch was redone whole, for every projection")
        #expect(try await engine.status().allSatisfy { $0.failure == nil })
        #expect(incidents.all.filter { if case .logReadFailed = $0 { true } else { false } }.count == 4)
        let recovered = try await statusAfterRecovery(engine)
        #expect(recovered.logReadFailures == 0 && recovered.phase == .running)
    }

    /// The runner's status once it has recorded the recovery: the runner publishes a batch's
    /// position before it resets its failure count, and says it runs only once it has read past
    /// the log's end, so a test woken by the position may look in between (each seen once under
    /// the full suite's load). Waits at most 5 s.
    private func statusAfterRecovery(_ engine: ProjectionEngine<some EventStore>) async throws -> ProjectionRunnerStatus {
        let deadline = ContinuousClock.now + .seconds(5)
        func settled(_ status: ProjectionRunnerStatus) -> Bool { status.logReadFailures == 0 && status.phase != .catchingUp }
        while !settled(engine.runnerStatus), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        return engine.runnerStatus
    }

    /// Waiting at the head of the log reads it too: a failure there is not taken for a close.
    @Test func aFailingWaitForTheNextEventIsRetriedNotTakenForAClose() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let (log, engine) = try flakyEngine(setup)
        let incidents = Incidents(engine)
        _ = try await engine.prepare()
        log.failingWaits.withLock { $0 = 3 }
        let live = Task { try await engine.runLive(retryDelayMin: .milliseconds(1)) }
        defer { live.cancel() }
        while log.failingWaits.withLock({ $0 }) > 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await setup.append(2)
        try await engine.waitUntilProjected(2, timeout: .seconds(5))
        #expect(incidents.all.filter { if case .logReadFailed = $0 { true } else { false } }.count == 3)
        #expect(engine.runnerStatus.phase == .running)
    }

    @Test func theRunnerSaysWhyItStopped() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        let incidents = Incidents(engine)
        _ = try await engine.prepare()
        #expect(engine.runnerStatus.phase == .starting)
        try await setup.append(3)
        let live = Task { try await engine.runLive() }
        try await engine.waitUntilProjected(3, timeout: .seconds(5))
        while engine.runnerStatus.phase != .running { try await Task.sleep(for: .milliseconds(5)) }
        setup.log.close()
        try await live.value
        #expect(engine.runnerStatus.phase == .stopped && engine.runnerStatus.stopReason == "the log closed")
        #expect(incidents.all == [.runnerStopped(reason: "the log closed")])
    }

    @Test func aCancelledRunnerSaysSo() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        while engine.runnerStatus.phase != .running { try await Task.sleep(for: .milliseconds(5)) }
        live.cancel()
        try await live.value
        #expect(engine.runnerStatus.phase == .stopped && engine.runnerStatus.stopReason == "cancelled")
    }
}

/// A projection whose events need personal-data keys that are unavailable `failures` times.
private final class KeysDown: Projection {
    let remaining: Mutex<Int>
    init(failures: Int) { remaining = Mutex(failures) }

    var name: String { "keysDown" }
    var version: Int { 1 }
    var tables: [String] { ["seen"] }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        let down = remaining.withLock { left in
            defer { left = max(0, left - 1) }
            return left > 0
        }
        if down { throw PersonalDataError.keyStore(path: "postgres://keys", reason: "no answer") }
        try model.put((try model.value(Int.self, at: "applied", in: "seen") ?? 0) + 1, at: "applied", in: "seen")
    }
}
