import EventLog
import EventSourcing
import Foundation
import Testing
@testable import Projections

/// A real log and a domain's read models in a temporary directory, fed by the domain's real
/// decider.
///
/// The decider is given the fold of every event it produced so far: a superset of any command's
/// boundary, on which it decides the same way.
final class DeciderFixture<D: Decider> {
    let directory = NSTemporaryDirectory() + "projection-fixture-" + UUID().uuidString
    let log: LMDBEventStore
    let engine: ProjectionEngine<LMDBEventStore>
    private var state = D.initialState
    private let live: Task<Void, any Error>
    /// A fixed start, so times in expectations are readable.
    static var start: Date { Date(timeIntervalSince1970: 1_800_000_000) }

    /// With `personalData`, the engine opens sealed fields with it, as a server's does, and events
    /// are sealed with it when appended (`appendProjected`).
    init(projections: [any Projection], personalData: (any PersonalDataKeyring)? = nil) async throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        log = try LMDBEventStore(dataDirectory: directory, options: options)
        engine = try ProjectionEngine(
            log: log, dataDirectory: directory, projections: projections, sync: .unsafeNever, personalData: personalData)
        #expect(try await engine.prepare().isEmpty)
        live = Task { [engine] in try await engine.runLive() }
    }

    /// Decides `command` as `actor` at `now`, appends its events, and waits until they are
    /// projected; returns the position of the last event.
    @discardableResult
    func run(_ command: D.Command, by actor: String, at now: Date = start) async throws -> UInt64 {
        let metadata = CommandMetadata(actor: actor, now: now, commandID: UUID())
        let events = try D.decide(command, state: state, metadata: metadata)
        try #require(!events.isEmpty, "the command changes something")
        state = D.fold(events, from: state)
        return try await appendProjected(events, by: actor, to: log, engine)
    }

    /// Appends events of another domain as they are, by `actor` (the facts a domain's read models
    /// also fold, such as the accounts' usernames for the quiz); returns the last position.
    @discardableResult
    func append<E: DomainEvent>(_ events: [E], by actor: String = "tester") async throws -> UInt64 {
        try await appendProjected(events, by: actor, to: log, engine)
    }

    /// Appends an event of another domain by `actor`: the domain's projections must skip it.
    @discardableResult
    func appendForeignEvent(by actor: String = "tester") async throws -> UInt64 {
        let event = ProposedEvent(streamID: "elsewhere-1", type: "elsewhere.somethingHappened", data: Data("{}".utf8))
        let result = try await log.append(AppendRequest(events: [event], metadata: AppendMetadata(actor: actor)))
        try await engine.waitUntilProjected(result.lastPosition)
        return result.lastPosition
    }

    func close() {
        live.cancel()
        log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
