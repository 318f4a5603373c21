import EventLog
import Foundation
import Synchronization
import Testing
@testable import Projections

/// A projection whose `apply` throws is marked failed where it threw and skipped; the others,
/// and read-your-writes, go on; a rebuild with the fix recovers it.
@Suite("Projection engine: a failing projection", .timeLimit(.minutes(3)))
struct ProjectionFailureTests {
    @Test func aFailingProjectionIsMarkedFailedWhileTheOthersGoOn() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let faulty = Faulty(failsAt: 5)
        let engine = try setup.engine([TypeCounts(), faulty])
        let incidents = Incidents(engine)
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(3)
        try await engine.waitUntilProjected(3)
        // One batch holds events 4 to 6: the failed projection keeps the events before the bad one.
        try await setup.append(3)
        // Read-your-writes does not wait for the failed projection: well within its bound.
        try await engine.waitUntilProjected(6, timeout: .seconds(2))
        #expect(try count(engine) == 6)

        let status = try #require(try await engine.status().first { $0.name == "faulty" })
        #expect(status.state == .failed && status.checkpoint == 4, "stopped at the last good event")
        #expect(status.failure == ProjectionFailure(position: 5, reason: "Bug()"))
        #expect(throws: ReadModelError.unavailable(projection: "faulty", failedAt: 5)) { try faulty.count(engine) }
        #expect(incidents.all == [.projectionFailed(name: "faulty", position: 5, reason: "Bug()")])
        #expect(try await engine.status().first { $0.name == "typeCounts" }?.state == .serving)

        // The runner goes on without it: later events reach the others, not the failed one.
        try await setup.append(10)
        try await engine.waitUntilProjected(16, timeout: .seconds(2))
        #expect(try count(engine) == 16)
        #expect(try await engine.status().first { $0.name == "faulty" }?.checkpoint == 4)
        #expect(engine.runnerStatus.phase == .running)
        #expect(incidents.all.count == 1, "marked once, not again on every batch")
    }

    @Test func theFailureSurvivesARestartAndDoesNotHoldBackReadYourWrites() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(10)
        do {
            let engine = try setup.engine([TypeCounts(), Faulty(failsAt: 2)])
            _ = try await engine.prepare()
            let live = Task { try await engine.runLive() }
            try await engine.waitUntilProjected(10, timeout: .seconds(2))
            live.cancel()
            _ = try? await live.value
        }
        let faulty = Faulty(failsAt: 2)
        let engine = try setup.engine([TypeCounts(), faulty])
        #expect(try await engine.prepare() == ["faulty"], "a failed projection is rebuilt on start: this build may carry the fix")
        #expect(engine.projected.position == 10, "the failed projection's checkpoint (1) does not hold back read-your-writes")
        let status = try #require(try await engine.status().first { $0.name == "faulty" })
        #expect(status.state == .failed && status.checkpoint == 1 && status.failure?.position == 2)
        #expect(throws: ReadModelError.unavailable(projection: "faulty", failedAt: 2)) { try faulty.count(engine) }
    }

    @Test func aRebuildWithoutTheFixFailsAgainAndIsRecordedAndOneWithTheFixRecoversIt() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let faulty = Faulty(failsAt: 3)
        let engine = try setup.engine([TypeCounts(), faulty])
        let incidents = Incidents(engine)
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(20)
        try await engine.waitUntilProjected(20, timeout: .seconds(2))

        await #expect(throws: ReadModelError.applyFailed(projection: "faulty", position: 3, reason: "Bug()")) {
            try await engine.rebuild("faulty")
        }
        var status = try #require(try await engine.status().first { $0.name == "faulty" })
        #expect(status.state == .failed && status.failure?.position == 3 && status.rebuildCheckpoint == nil)
        #expect(status.lastRebuildError == "projection faulty failed at position 3: Bug()")
        #expect(incidents.all.contains(.rebuildFailed(name: "faulty", reason: "projection faulty failed at position 3: Bug()")))
        #expect(engine.runnerStatus.phase == .running, "a failed rebuild does not touch the runner")

        faulty.fix.apply()
        // Appends go on while it rebuilds; the swap brings it up to what the others include.
        let appending = Task { try await setup.append(30) }
        try await engine.rebuild("faulty")
        try await appending.value
        try await engine.waitUntilProjected(50, timeout: .seconds(2))
        status = try #require(try await engine.status().first { $0.name == "faulty" })
        #expect(status.state == .serving && status.failure == nil && status.lastRebuildError == nil && status.generation == 1)
        #expect(status.checkpoint == 50 && status.lag == 0)
        #expect(try faulty.count(engine) == 50, "the rebuilt copy got past the event and follows the log again")
    }

    /// A projection writing a table it did not declare is a bug in it, like any other throw.
    @Test func anUndeclaredTableFailsTheProjectionNotTheRunner() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        let engine = try setup.engine([TypeCounts(), Undeclared()])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(2)
        try await engine.waitUntilProjected(2, timeout: .seconds(2))
        let status = try #require(try await engine.status().first { $0.name == "undeclared" })
        #expect(status.state == .failed && status.failure?.position == 1 && status.checkpoint == 0)
        #expect(status.failure?.reason.contains("has no table other") == true, "\(String(describing: status.failure))")
    }

    /// A new version whose rebuild throws cannot serve its old copy either: it is marked failed
    /// (503 read_model_unavailable), not left as "rebuilding" forever.
    @Test func aNewVersionWhoseRebuildFailsIsMarkedFailed() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(5)
        do {
            let engine = try setup.engine([Faulty(failsAt: 99)])
            _ = try await engine.prepare()
            let live = Task { try await engine.runLive() }
            try await engine.waitUntilProjected(5, timeout: .seconds(2))
            live.cancel()
        }
        let engine = try setup.engine([FaultyV2(failsAt: 4)])
        #expect(try await engine.prepare() == ["faulty"])
        #expect(throws: ReadModelError.rebuilding("faulty")) { try FaultyV2(failsAt: 4).count(engine) }
        await #expect(throws: ReadModelError.applyFailed(projection: "faulty", position: 4, reason: "Bug()")) {
            try await engine.rebuild("faulty")
        }
        let status = try #require(try await engine.status().first)
        #expect(status.state == .failed && status.failure?.position == 4 && status.version == 1)
        #expect(throws: ReadModelError.unavailable(projection: "faulty", failedAt: 4)) { try FaultyV2(failsAt: 4).count(engine) }
    }

    @Test func metadataOfTheFormerFormatReadsAsNotFailedAndTheNewFormatKeepsTheFailure() throws {
        let rebuild = ProjectionMeta.Rebuild(id: UUID(), generation: 3, version: 2, checkpoint: 40)
        var old = ValueWriter()
        old.writeVarint(UInt64(ProjectionMeta.binaryFormatWithoutFailures))
        old.write(2)
        old.write(2)
        old.write(UInt64(77))
        old.write(Optional(rebuild))
        let decoded = try ProjectionMeta.decode(from: old.bytes)
        #expect(decoded == ProjectionMeta(version: 2, activeGeneration: 2, checkpoint: 77, rebuild: rebuild))
        #expect(decoded.failure == nil && decoded.lastRebuildError == nil)

        var failed = decoded
        failed.failure = ProjectionFailure(position: 78, reason: "Bug()")
        failed.lastRebuildError = "projection x failed at position 78: Bug()"
        let bytes = failed.encodedBytes()
        #expect(bytes.first == ProjectionMeta.binaryFormat && ProjectionMeta.binaryFormat != ProjectionMeta.binaryFormatWithoutFailures)
        #expect(try ProjectionMeta.decode(from: bytes) == failed)
        #expect(throws: ValueDecodingError.self) { try ProjectionMeta.decode(from: [9] + bytes.dropFirst()) }
    }
}

/// `Faulty` as a second version: its stored copy of version 1 needs a rebuild.
struct FaultyV2: Projection {
    var name: String { "faulty" }
    var version: Int { 2 }
    var tables: [String] { ["seen"] }
    let failsAt: UInt64

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        try Faulty(failsAt: failsAt).apply(event, to: model)
    }

    func count(_ engine: ProjectionEngine<some EventStore>) throws -> Int {
        try engine.read(self) { try $0.value(Int.self, at: "count", in: "seen") } ?? 0
    }
}

/// Every incident `engine` reports, in order.
final class Incidents: Sendable {
    private let recorded = Mutex<[ProjectionIncident]>([])

    init(_ engine: ProjectionEngine<some EventStore>) {
        engine.reportIncidents { [self] incident in record(incident) }
    }

    private func record(_ incident: ProjectionIncident) {
        recorded.withLock { $0.append(incident) }
    }

    var all: [ProjectionIncident] { recorded.withLock { $0 } }
}
