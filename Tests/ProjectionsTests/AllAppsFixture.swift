import EventLog
import EventSourcing
import Foundation
import Testing
@testable import Projections

/// One real log fed by every app's real decider, and every read model of the service
/// (`LogbookProjections.all`) following it live, as in the server.
///
/// Like `DeciderFixture`, each decider is given the fold of every event it produced so far: a
/// superset of any command's boundary, on which it decides the same way.
final class AllAppsFixture {
    let directory = NSTemporaryDirectory() + "projection-all-apps-" + UUID().uuidString
    let log: LMDBEventStore
    let engine: ProjectionEngine<LMDBEventStore>
    /// Each decider's fold so far, by decider type.
    private var states: [ObjectIdentifier: Any] = [:]
    private let live: Task<Void, any Error>
    /// A fixed start, so times are readable.
    static var start: Date { Date(timeIntervalSince1970: 1_800_000_000) }

    init() async throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        log = try LMDBEventStore(dataDirectory: directory, options: options)
        engine = try ProjectionEngine(log: log, dataDirectory: directory, projections: LogbookProjections.all, sync: .unsafeNever)
        #expect(try await engine.prepare().isEmpty)
        live = Task { [engine] in try await engine.runLive() }
    }

    /// Decides `command` with `decider` as `actor` at `now`, appends its events, and waits until
    /// every read model includes them; returns the position of the last event.
    @discardableResult
    func run<D: Decider>(_ decider: D.Type, _ command: D.Command, by actor: String, at now: Date = start) async throws -> UInt64 {
        let key = ObjectIdentifier(D.self)
        let state = states[key] as? D.State ?? D.initialState
        let events = try D.decide(command, state: state, metadata: CommandMetadata(actor: actor, now: now, commandID: UUID()))
        try #require(!events.isEmpty, "the command changes something")
        states[key] = D.fold(events, from: state)
        return try await appendProjected(events, by: actor, to: log, engine)
    }

    /// Appends `events` as they are, by `actor`, and waits until every read model includes
    /// them: for a history told event by event (the workplace's, whose decider came later);
    /// returns the position of the last event.
    @discardableResult
    func append<E: DomainEvent>(_ events: [E], by actor: String) async throws -> UInt64 {
        try await appendProjected(events, by: actor, to: log, engine)
    }

    func close() {
        live.cancel()
        log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
