import Accounts
import EventLog
import EventSourcing
import Foundation
import Testing
@testable import Projections

/// A real log and the accounts read models in a temporary directory, fed by the real decider.
///
/// The decider is given the fold of every account event so far: a superset of any command's
/// boundary, on which it decides the same way.
final class AccountsFixture {
    let directory = NSTemporaryDirectory() + "accounts-projection-tests-" + UUID().uuidString
    let log: LMDBEventStore
    let engine: ProjectionEngine<LMDBEventStore>
    let queries: AccountQueries<LMDBEventStore>
    private var state = AccountDecider.initialState
    private let live: Task<Void, any Error>
    /// A fixed start, so times in expectations are readable.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    init() async throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        log = try LMDBEventStore(dataDirectory: directory, options: options)
        engine = try ProjectionEngine(log: log, dataDirectory: directory, projections: AccountProjections.all, unsafeNoSync: true)
        #expect(try await engine.prepare().isEmpty)
        queries = AccountQueries(engine: engine)
        live = Task { [engine] in try await engine.runLive() }
    }

    /// Decides `command` as its account at `now`, appends its events, and waits until they are
    /// projected; returns the position of the last event.
    @discardableResult
    func run(_ command: AccountCommand, by actor: String? = nil, at now: Date = start) async throws -> UInt64 {
        let metadata = CommandMetadata(actor: actor ?? command.userId, now: now, commandID: UUID())
        let events = try AccountDecider.decide(command, state: state, metadata: metadata)
        try #require(!events.isEmpty, "the command changes something")
        state = AccountDecider.fold(events, from: state)
        let proposed = try events.map { event in
            ProposedEvent(streamID: event.streamID, type: event.typeName, tags: event.tags, data: try event.encodeData())
        }
        let result = try await log.append(AppendRequest(events: proposed, metadata: AppendMetadata(actor: metadata.actor)))
        try await engine.waitUntilProjected(result.lastPosition)
        return result.lastPosition
    }

    /// Appends an event of another domain by `actor`.
    @discardableResult
    func appendForeignEvent(by actor: String) async throws -> UInt64 {
        let event = ProposedEvent(streamID: "quiz-1", type: "quiz.gameCreated", data: Data("{}".utf8))
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

/// Readable values for commands.
enum Secrets {
    static func hash(_ seed: Character) -> PasswordHash {
        PasswordHash(bcrypt: "$2b$04$" + String(repeating: seed, count: 53))!
    }

    static func token(_ seed: Character) -> TokenHash {
        TokenHash(hex: String(repeating: seed, count: 64))!
    }

    static let sealed = SealedToken(base64: "c2VhbGVk")!
}

extension AccountsFixture {
    func register(_ userId: String, email: String, password: Character = "a") async throws {
        try await run(.register(.init(
            userId: userId, email: email, passwordHash: Secrets.hash(password), passwordLength: 12, displayName: userId.capitalized)))
    }
}
