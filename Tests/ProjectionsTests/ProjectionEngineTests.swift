import EventLog
import Foundation
import Synchronization
import Testing
@testable import Projections

@Suite("Projection engine", .timeLimit(.minutes(3)))
struct ProjectionEngineTests {
    @Test func followsTheLogAndAnswersReadYourWrites() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        #expect(try await engine.prepare().isEmpty)
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(1_200)
        try await engine.waitUntilProjected(try setup.log.headPosition())
        #expect(try count(engine) == 1_200)
        try await setup.append(1, type: "test.other")
        try await engine.waitUntilProjected(1_201)
        #expect(try count(engine, "test.other") == 1)
        let status = try await engine.status()
        #expect(status == [ProjectionStatus(name: "typeCounts", version: 1, generation: 0, checkpoint: 1_201, lag: 0, rebuildCheckpoint: nil)])
    }

    @Test func aRestartContinuesFromTheCheckpointWithoutApplyingTwice() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        do {
            let engine = try setup.engine([TypeCounts()])
            _ = try await engine.prepare()
            let live = Task { try await engine.runLive() }
            try await setup.append(300)
            try await engine.waitUntilProjected(300)
            live.cancel()
            _ = try? await live.value
        }
        try await setup.append(200)
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        #expect(engine.projected.position == 300, "the checkpoint was stored")
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(500)
        #expect(try count(engine) == 500)
    }

    /// A rebuild that read a full batch or more gives the freed memory of its batches back at its
    /// end (`FreedMemory`); a short one, and a runner that started at the head, do not.
    @Test func aLongRebuildGivesItsFreedMemoryBack() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(100)
        try await engine.waitUntilProjected(100)
        try await engine.rebuild("typeCounts")
        #expect(engine.freedMemoryReturns.load(ordering: .relaxed) == 0)
        try await setup.append(firstBatch)
        try await engine.waitUntilProjected(UInt64(firstBatch + 100))
        #expect(engine.freedMemoryReturns.load(ordering: .relaxed) == 0, "the runner was at the head")
        try await engine.rebuild("typeCounts")
        #expect(engine.freedMemoryReturns.load(ordering: .relaxed) == 1)
        #expect(try count(engine) == firstBatch + 100)
    }

    /// 12,000 events take two rebuild batches (10,000 at most each): paused after the first,
    /// the new copy holds 10,000 while every read still answers from the old, whole copy.
    @Test(.timeLimit(.minutes(3))) func aRebuildEqualsTheLiveModelAndTheOldCopyServesMeanwhile() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(firstBatch + 2_000)
        try await engine.waitUntilProjected(UInt64(firstBatch + 2_000))
        let before = try engine.read(TypeCounts()) { try $0.entries(UInt64.self, in: "recent", limit: 20_000).map(\.value) }

        let pause = RebuildPause(engine) { step, _ in step == .built(checkpoint: UInt64(firstBatch)) }
        let rebuild = Task { try await engine.rebuild("typeCounts") }
        #expect(await pause.untilPaused() == .built(checkpoint: UInt64(firstBatch)))
        // Mid-way: the new copy is half built, and reads see the old copy whole.
        let newCopy = try engine.store.tables(of: TypeCounts(), generation: 1)
        let built = try engine.store.read { try ReadModelReader(transaction: $0, projection: "typeCounts", tables: newCopy).value(Int.self, at: "test.happened", in: "counts") }
        #expect(built == firstBatch)
        #expect(try count(engine) == firstBatch + 2_000)
        let midway = try #require(try await engine.status().first)
        #expect(midway.generation == 0 && midway.rebuildCheckpoint == UInt64(firstBatch) && midway.state == .serving)
        pause.resume()
        try await rebuild.value

        #expect(try count(engine) == firstBatch + 2_000)
        #expect(try engine.read(TypeCounts()) { try $0.entries(UInt64.self, in: "recent", limit: 20_000).map(\.value) } == before)
        let status = try await engine.status()
        #expect(status.first?.generation == 1 && status.first?.rebuildCheckpoint == nil && status.first?.checkpoint == UInt64(firstBatch + 2_000))

        // Events keep flowing into the new copy, and a second rebuild reuses the first slot.
        try await setup.append(10)
        try await engine.waitUntilProjected(UInt64(firstBatch + 2_010))
        engine.rebuildHook.withLock { $0 = nil }
        try await engine.rebuild("typeCounts")
        #expect(try count(engine) == firstBatch + 2_010)
        #expect(try await engine.status().first?.generation == 2)
    }

    @Test func aNewVersionIsReportedStaleAndARebuildBringsItUpToDate() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(50)
        do {
            let engine = try setup.engine([TypeCounts()])
            _ = try await engine.prepare()
            let live = Task { try await engine.runLive() }
            try await engine.waitUntilProjected(50)
            live.cancel()
        }
        let engine = try setup.engine([TypeCounts(version: 2)])
        #expect(try await engine.prepare() == ["typeCounts"])
        try await engine.rebuild("typeCounts")
        #expect(try await engine.status().first?.version == 2)
        #expect(try count(engine, as: TypeCounts(version: 2)) == 50)
        await #expect(throws: ReadModelError.unknownProjection("nope")) { try await engine.rebuild("nope") }
    }

    @Test func readYourWritesGivesUpAfterItsBound() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        try await setup.append(1)
        await #expect(throws: ReadModelError.notCaughtUp(position: 1, projected: 0)) {
            try await engine.waitUntilProjected(1, timeout: .milliseconds(50))
        }
    }

    /// The read models' storage failing is not a projection's bug: the runner stops (and says
    /// so) rather than marking a projection failed, and the batch is stored for no one.
    @Test func aStorageFailureStopsTheRunnerWithoutStoringHalfABatch() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts(), StorageFailing(failsAt: 4)])
        _ = try await engine.prepare()
        #expect(engine.runnerStatus.phase == .starting)
        try await setup.append(4)
        await #expect(throws: ReadModelError.storage(.system(errno: 5))) { try await engine.runLive() }
        #expect(try count(engine) == 0, "the batch holding the event was not stored for anyone")
        #expect(engine.runnerStatus.phase == .stopped && engine.runnerStatus.stopReason?.contains("read-model storage") == true)
        #expect(try await engine.status().allSatisfy { $0.state == .serving }, "no projection is blamed")
    }

    /// Each event adds a `recent` entry, so 5,000 of them need more than the 256 KiB map.
    @Test func readModelsGrowPastTheirInitialMapBothLiveAndInARebuild() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()], initialMapSizeBytes: 256 << 10)
        _ = try await engine.prepare()
        try await setup.append(5_000)
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await engine.waitUntilProjected(5_000)
        #expect(try count(engine) == 5_000)
        #expect(engine.store.environment.info().mapSizeBytes > 256 << 10)
        try await engine.rebuild("typeCounts")
        #expect(try count(engine) == 5_000)
    }

    @Test func entriesPageForwardBackwardAndByPrefix() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts()])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(5)
        try await engine.waitUntilProjected(5)
        try engine.read(TypeCounts()) { reader in
            let newest = try reader.entries(UInt64.self, in: "recent", limit: 2)
            #expect(newest.map(\.value) == [5, 4])
            #expect(try reader.entries(UInt64.self, in: "recent", after: newest.last?.key, limit: 10).map(\.value) == [3, 2, 1])
            #expect(try reader.entries(UInt64.self, in: "recent", reverse: true, limit: 2).map(\.value) == [1, 2])
            #expect(try reader.entries(UInt64.self, in: "recent", after: RecentKey.of(2), reverse: true, limit: 10).map(\.value) == [3, 4, 5])
            #expect(try reader.entries(Int.self, in: "counts", prefix: "test.", limit: 10).map(\.key) == ["test.happened"])
            #expect(try reader.entries(Int.self, in: "counts", prefix: "zzz", reverse: true, limit: 10).isEmpty)
            #expect(throws: ReadModelError.unknownTable(projection: "typeCounts", table: "nope")) {
                try reader.value(Int.self, at: "x", in: "nope")
            }
        }
    }
}
