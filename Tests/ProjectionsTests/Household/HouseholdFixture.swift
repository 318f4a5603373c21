import EventLog
import EventSourcing
import Foundation
import Household
import Testing
@testable import Projections

/// A real log and the household read models in a temporary directory, fed by the real decider.
///
/// The decider is given the fold of every household event so far: a superset of any command's
/// boundary, on which it decides the same way.
final class HouseholdFixture {
    let directory = NSTemporaryDirectory() + "household-projection-tests-" + UUID().uuidString
    let log: LMDBEventStore
    let engine: ProjectionEngine<LMDBEventStore>
    let queries: HouseholdQueries<LMDBEventStore>
    private var state = HouseholdDecider.initialState
    private let live: Task<Void, any Error>
    /// A fixed start, so times in expectations are readable.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    init() async throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        log = try LMDBEventStore(dataDirectory: directory, options: options)
        engine = try ProjectionEngine(log: log, dataDirectory: directory, projections: HouseholdProjections.all, unsafeNoSync: true)
        #expect(try await engine.prepare().isEmpty)
        queries = HouseholdQueries(engine: engine)
        live = Task { [engine] in try await engine.runLive() }
    }

    /// Decides `command` as `actor` at `now`, appends its events, and waits until they are
    /// projected; returns the position of the last event.
    @discardableResult
    func run(_ command: HouseholdCommand, by actor: String, at now: Date = start) async throws -> UInt64 {
        let metadata = CommandMetadata(actor: actor, now: now, commandID: UUID())
        let events = try HouseholdDecider.decide(command, state: state, metadata: metadata)
        try #require(!events.isEmpty, "the command changes something")
        state = HouseholdDecider.fold(events, from: state)
        let proposed = try events.map { event in
            ProposedEvent(streamID: event.streamID, type: event.typeName, tags: event.tags, data: try event.encodeData())
        }
        let result = try await log.append(AppendRequest(events: proposed, metadata: AppendMetadata(actor: actor)))
        try await engine.waitUntilProjected(result.lastPosition)
        return result.lastPosition
    }

    /// Appends an event of another domain: the household projections skip it.
    func appendForeignEvent() async throws {
        let event = ProposedEvent(streamID: "quiz-1", type: "quiz.gameCreated", data: Data("{}".utf8))
        let result = try await log.append(AppendRequest(events: [event], metadata: AppendMetadata(actor: "tester")))
        try await engine.waitUntilProjected(result.lastPosition)
    }

    func close() {
        live.cancel()
        log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A join code the decider accepts: 22–64 URL-safe characters.
func joinCode(_ seed: String) -> String {
    seed + String(repeating: "x", count: max(0, 22 - seed.count))
}

/// Commands with readable defaults, so tests say only what matters to them.
extension HouseholdFixture {
    func createHouse(_ houseId: String, by userId: String, name: String = "Home", code: String? = nil) async throws {
        try await run(.createHouse(
            houseId: houseId, name: name, joinCode: code ?? joinCode(houseId), userId: userId, displayName: userId.capitalized),
            by: userId)
    }

    func join(_ houseId: String, _ userId: String, code: String? = nil, displayName: String? = nil) async throws {
        try await run(.joinHouse(
            houseId: houseId, joinCode: code ?? joinCode(houseId), userId: userId, displayName: displayName ?? userId.capitalized),
            by: userId)
    }

    @discardableResult
    func complete(_ houseId: String, _ taskId: String, by userId: String, at now: Date = start) async throws -> UInt64 {
        try await run(.completeTask(houseId: houseId, taskId: taskId), by: userId, at: now)
    }
}
