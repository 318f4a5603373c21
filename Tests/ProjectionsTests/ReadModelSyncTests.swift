import EventLog
import Foundation
import Testing
@testable import Projections

/// Read models that commit without sync (`ReadModelSync.untilFinished`) are never served torn:
/// a marker naming the machine's boot is durable before the first unsynced commit; opened in the
/// same boot (the process was killed, the page cache kept every write) they are kept; opened in
/// another boot with the marker there (the machine restarted) they are deleted and built again
/// from the log; finishing syncs them and removes the marker.
@Suite("Read models synced until finished, guarded by the boot", .timeLimit(.minutes(2)))
struct ReadModelSyncTests {
    private func engine(
        _ setup: TestSetup, _ sync: ReadModelSync = .untilFinished, boot: String?, readOnly: Bool = false
    ) throws -> ProjectionEngine<LMDBEventStore> {
        try ProjectionEngine(log: setup.log, dataDirectory: setup.directory, projections: [TypeCounts()], sync: sync, bootID: boot, readOnly: readOnly)
    }

    private func marker(_ setup: TestSetup) -> String? {
        try? String(contentsOfFile: setup.directory + "/readmodels/unsynced", encoding: .utf8)
    }

    /// Appends `count` events and projects them, and every event before them, with a runner that
    /// is stopped afterwards. The wait is for the log's head, not for the engine's position plus
    /// `count`: an engine whose read models were deleted starts behind the log, and its first
    /// batch may pass that sum before the new events are in it.
    private func project(_ count: Int, _ setup: TestSetup, _ engine: ProjectionEngine<LMDBEventStore>) async throws {
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(count)
        try await engine.waitUntilProjected(try setup.log.headPosition(), timeout: .seconds(10))
    }

    @Test func theMarkerIsDurableBeforeAnyCommitAndFinishingSyncsAndRemovesIt() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try engine(setup, boot: "boot-a")
        #expect(marker(setup) == "boot-a", "written at open, before the first commit")
        #expect(!engine.store.environment.syncsEachCommit)
        try await project(5, setup, engine)
        #expect(try count(engine) == 5)

        try engine.finishUnsyncedWrites()
        #expect(marker(setup) == nil)
        #expect(engine.store.environment.syncsEachCommit, "commits after the finish sync themselves")
        try engine.finishUnsyncedWrites()  // nothing left to do
    }

    /// A catch-up of a full batch or more ends with the unsynced read models written to disk,
    /// before the runner calls itself running (and `/health/ready` says ready): left to the
    /// kernel, that write-back came about thirty seconds later and stalled the log's fsyncs under
    /// load. A short catch-up, or commits that sync themselves, need no flush. A long one, synced
    /// or not, also gives its batches' freed memory back (`FreedMemory`).
    @Test(arguments: [
        (100, ReadModelSync.untilFinished, 0, 0), (firstBatch + 1, .untilFinished, 1, 1), (firstBatch + 1, .everyCommit, 0, 1),
    ])
    func aLongCatchUpIsFlushedBeforeTheRunnerIsRunning(events: Int, sync: ReadModelSync, flushes: Int, memoryReturns: Int) async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(events)
        let engine = try engine(setup, sync, boot: "boot-a")
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(UInt64(events), timeout: .seconds(20))
        let deadline = ContinuousClock.now + .seconds(10)
        while engine.runnerStatus.phase != .running, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(engine.runnerStatus.phase == .running)
        #expect(engine.store.flushes.load(ordering: .relaxed) == flushes)
        #expect(engine.freedMemoryReturns.load(ordering: .relaxed) == memoryReturns)
        try await setup.append(5)
        try await engine.waitUntilProjected(UInt64(events + 5))
        #expect(engine.store.flushes.load(ordering: .relaxed) == flushes, "only the end of the first catch-up")
        #expect(engine.freedMemoryReturns.load(ordering: .relaxed) == memoryReturns)
    }

    @Test func aKilledProcessRestartedInTheSameBootKeepsItsReadModels() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        // Never finished: as a process killed with its writes in the page cache.
        try await project(5, setup, try engine(setup, boot: "boot-a"))

        let again = try engine(setup, boot: "boot-a")
        #expect(!again.discardedUnsyncedReadModels)
        #expect(try count(again) == 5, "kept, before any runner")
        #expect(marker(setup) == "boot-a")
    }

    @Test func aMachineRestartDeletesUnsyncedReadModelsAndTheLogBuildsThemAgain() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await project(5, setup, try engine(setup, boot: "boot-a"))

        let restarted = try engine(setup, boot: "boot-b")
        #expect(restarted.discardedUnsyncedReadModels)
        _ = try await restarted.prepare()
        #expect(try count(restarted) == 0, "deleted, not served")
        #expect(marker(setup) == "boot-b", "the new writes are unsynced in the new boot")
        try await project(2, setup, restarted)
        #expect(try count(restarted) == 7, "built again from the log")
    }

    /// A marker that names no boot (emptied, or not readable as text) matches none: the read
    /// models it guards are treated as written before a restart.
    @Test func aMarkerNamingNoBootCondemnsTheReadModels() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await project(5, setup, try engine(setup, boot: "boot-a"))
        try Data().write(to: URL(fileURLWithPath: setup.directory + "/readmodels/unsynced"))

        let again = try engine(setup, boot: "boot-a")
        #expect(again.discardedUnsyncedReadModels)
        _ = try await again.prepare()
        #expect(try count(again) == 0)
        #expect(marker(setup) == "boot-a")
    }

    @Test func finishedReadModelsSurviveARestart() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let first = try engine(setup, boot: "boot-a")
        try await project(5, setup, first)
        try first.finishUnsyncedWrites()

        let restarted = try engine(setup, boot: "boot-b")
        #expect(!restarted.discardedUnsyncedReadModels)
        #expect(try count(restarted) == 5)
    }

    @Test func aReaderRefusesReadModelsARestartMayHaveTornAndReadsThemInTheSameBoot() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await project(5, setup, try engine(setup, boot: "boot-a"))

        #expect(throws: ReadModelError.unsyncedBeforeRestart) { try engine(setup, .everyCommit, boot: "boot-b", readOnly: true) }
        #expect(throws: ReadModelError.unsyncedBeforeRestart) { try engine(setup, .everyCommit, boot: nil, readOnly: true) }
        #expect(try count(try engine(setup, .everyCommit, boot: "boot-a", readOnly: true)) == 5)
        #expect(marker(setup) == "boot-a", "a reader changes nothing")
    }

    /// `logbook-admin replay` beside a running server syncs each of its commits, but must not
    /// take away the marker the server's unsynced commits still need. (One process must not open
    /// an environment twice at once, so the server's engine is gone when the other opens.)
    @Test func anotherWriterSyncingEachCommitLeavesTheMarker() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await project(3, setup, try engine(setup, boot: "boot-a"))
        let other = try engine(setup, .everyCommit, boot: "boot-a")
        #expect(other.store.environment.syncsEachCommit)
        try await project(2, setup, other)
        #expect(marker(setup) == "boot-a")
        #expect(try count(other) == 5)
    }

    @Test func withoutABootIDEveryCommitSyncs() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try engine(setup, boot: nil)
        #expect(engine.store.environment.syncsEachCommit)
        #expect(marker(setup) == nil)
    }
}
