import EventLog
import Foundation
import Testing
@testable import Projections

/// Appends go on during a rebuild: the swap brings the new copy up to the served one before it
/// replaces it, again if the runner moves on meanwhile; and a new version is never read before
/// its copy is swapped in.
@Suite("Projection engine: rebuild and swap", .timeLimit(.minutes(3)))
struct RebuildSwapTests {
    @Test func eventsAppendedDuringARebuildAreCaughtUpAtTheSwap() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(3_000)
        try await engine.waitUntilProjected(3_000)

        let pause = RebuildPause(engine) { step, _ in step == .reachedEnd(checkpoint: 3_000) }
        let rebuild = Task { try await engine.rebuild("typeCounts") }
        #expect(await pause.untilPaused() == .reachedEnd(checkpoint: 3_000))
        // The new copy is built to the end, 3,000; 100 more arrive and the live runner serves them.
        try await setup.append(100, type: "test.later")
        try await engine.waitUntilProjected(3_100)
        #expect(try count(engine, "test.later") == 100)
        pause.resume()
        try await rebuild.value

        // The swap read the 100 the new copy lacked and applied them in its transaction.
        #expect(pause.steps == [.built(checkpoint: 3_000), .reachedEnd(checkpoint: 3_000), .swapping(served: 3_100, rebuilt: 3_000, target: 3_100, missing: 100)])
        #expect(try count(engine, "test.later") == 100 && count(engine) == 3_000)
        let status = try #require(try await engine.status().first)
        #expect(status.generation == 1 && status.checkpoint == 3_100)
        // And the live runner goes on into the new copy.
        try await setup.append(1, type: "test.later")
        try await engine.waitUntilProjected(3_101)
        #expect(try count(engine, "test.later") == 101)
    }

    /// Paused after reading what it lacks, before its transaction: the runner moves on, so the
    /// swap must not happen (the new copy would be behind the served one); it catches up again.
    @Test func theSwapCatchesUpAgainWhenTheRunnerMovesOnDuringIt() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(500)
        try await engine.waitUntilProjected(500)

        let pause = RebuildPause(engine) { step, earlier in
            if case .swapping = step { !earlier.contains { if case .swapping = $0 { true } else { false } } } else { false }
        }
        let rebuild = Task { try await engine.rebuild("typeCounts") }
        #expect(await pause.untilPaused() == .swapping(served: 500, rebuilt: 500, target: 500, missing: 0))
        try await setup.append(50, type: "test.later")
        try await engine.waitUntilProjected(550)
        pause.resume()
        try await rebuild.value

        let swaps = pause.steps.filter { if case .swapping = $0 { true } else { false } }
        #expect(swaps == [
            .swapping(served: 500, rebuilt: 500, target: 500, missing: 0),
            .swapping(served: 550, rebuilt: 500, target: 550, missing: 50),
        ])
        #expect(try count(engine) == 500 && count(engine, "test.later") == 50)
        #expect(try await engine.status().first?.checkpoint == 550)
    }

    /// After an upgrade the copy on disk is another version's: while its rebuild runs (paused
    /// mid-way here) its queries are refused with `.rebuilding`, never answered from the old
    /// layout or the half-built copy; once swapped they answer in full.
    @Test func aNewVersionIsRefusedDuringItsRebuildAndRightAfterIt() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(firstBatch + 2_000)
        do {
            let engine = try setup.engine([TypeCounts()])
            _ = try await engine.prepare()
            let live = Task { try await engine.runLive() }
            try await engine.waitUntilProjected(UInt64(firstBatch + 2_000))
            live.cancel()
        }
        let version2 = TypeCounts(version: 2)
        let engine = try setup.engine([version2])
        #expect(try await engine.prepare() == ["typeCounts"])
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        let pause = RebuildPause(engine) { step, _ in step == .built(checkpoint: UInt64(firstBatch)) }
        let rebuild = Task { try await engine.rebuild("typeCounts") }
        #expect(await pause.untilPaused() == .built(checkpoint: UInt64(firstBatch)))
        #expect(throws: ReadModelError.rebuilding("typeCounts")) { try count(engine, as: version2) }
        try await setup.append(5)
        try await engine.waitUntilProjected(UInt64(firstBatch + 2_005))
        #expect(throws: ReadModelError.rebuilding("typeCounts")) { try count(engine, as: version2) }
        pause.resume()
        try await rebuild.value
        #expect(try count(engine, as: version2) == firstBatch + 2_005)
        #expect(try await engine.status().first.map { ($0.version, $0.state) } ?? (0, .failed) == (2, .serving))
    }
}
