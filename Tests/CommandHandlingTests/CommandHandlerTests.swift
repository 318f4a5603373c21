import EventLog
import EventSourcing
import Foundation
import Testing
@testable import CommandHandling

/// A log in a temporary directory (no fsync: durability is the log's own tests' subject).
struct TestStore {
    let directory = NSTemporaryDirectory() + "handler-tests-" + UUID().uuidString
    let store: LMDBEventStore

    init() throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        store = try LMDBEventStore(dataDirectory: directory, options: options)
    }

    func remove() {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

@Suite("Command handler", .timeLimit(.minutes(3)))
struct CommandHandlerTests {
    @Test func aDecisionIsAppendedWithItsTagsAndPosition() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        let outcome = try await handler.handle(Names.self, .claim(name: "Ann", userID: "u1"), metadata: metadata("u1"))
        #expect(outcome == CommandOutcome(events: [.claimed(.init(name: "Ann", userID: "u1"))], position: 1, isReplay: false, state: "u1"))
        let stored = try #require(try log.store.event(at: 1))
        #expect(stored.type == "names.claimed" && stored.streamID == "name-u1" && stored.tags == ["name:ann", "user:u1"])
        #expect(stored.actor == "u1")
    }

    @Test func aRefusalWritesNothingAndNothingToDoIsNoEvent() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        _ = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1"))
        await #expect(throws: CommandFailure<Names.Failure>.rejected(.taken)) {
            try await handler.handle(Names.self, .claim(name: "ANN", userID: "u2"), metadata: metadata("u2"))
        }
        let again = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1"))
        #expect(again.events.isEmpty && again.position == 1)
        #expect(try log.store.headPosition() == 1)
    }

    @Test func aRetriedCommandReturnsItsFirstOutcomeEvenWhenItWouldNowBeRefused() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        let commandID = UUID()
        let first = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1", commandID: commandID))
        let retry = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1", commandID: commandID))
        #expect(retry == CommandOutcome(events: first.events, position: first.position, isReplay: true, state: "u1"))
        #expect(try log.store.headPosition() == 1)
    }

    @Test func anIdempotencyKeyOfAnotherActorOrDomainRevealsNothing() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        let commandID = UUID()
        _ = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1", commandID: commandID))
        await #expect(throws: CommandFailure<Names.Failure>.idempotencyKeyReused) {
            try await handler.handle(Names.self, .claim(name: "bob", userID: "u2"), metadata: metadata("u2", commandID: commandID))
        }
        await #expect(throws: CommandFailure<Tally.Failure>.idempotencyKeyReused) {
            try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata("u1", commandID: commandID))
        }
    }

    @Test func concurrentClaimsOfOneNameHaveExactlyOneWinner() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for user in 0..<64 {
                group.addTask {
                    (try? await handler.handle(Names.self, .claim(name: "Ann", userID: "u\(user)"), metadata: metadata("u\(user)"))) != nil
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try log.store.read(matching: EventQuery(tags: ["name:ann"]), limit: 100).events.count == 1)
    }

    @Test func concurrentAddsToOneTallyAllLandWithConsistentTotals() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store, attemptsMax: 100)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<32 {
                group.addTask { _ = try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata()) }
            }
            try await group.waitForAll()
        }
        let totals = try log.store.readTag("tally:t", limit: 100).map { try EventJSON.decode(Tally.Event.Added.self, from: $0.data).total }
        #expect(totals == Array(1...32), "each decision saw every earlier add: no lost update")
    }

    @Test func concurrentCommandsOnOneBoundaryAreDecidedAsOneChainInOneCommit() async throws {
        let log = try TestStore()
        defer { log.remove() }
        // The first append is held back, so the other 49 commands queue while it is in flight.
        let slowFirst = RacingStore(base: log.store) { _ in try await Task.sleep(for: .milliseconds(50)) }
        let handler = CommandHandler(store: slowFirst)  // the default 8 attempts
        let outcomes = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<50 {
                group.addTask { try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata()).state }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(handler.commandsQueued > 0, "the commands did contend for the boundary")
        #expect(handler.conflictsSeen == 0, "none decided on a stale fold")
        // The first alone, then the queued ones as one chain: decided one after the other, each
        // on the state the previous left, and appended together.
        #expect(slowFirst.appendCalls <= 3 && log.store.commitCount == slowFirst.appendCalls, "\(log.store.commitCount) commits")
        #expect(outcomes.compactMap { $0 }.sorted() == Array(1...50), "each outcome's state is the total after its own add")
        let totals = try log.store.readTag("tally:t", limit: 100).map { try EventJSON.decode(Tally.Event.Added.self, from: $0.data).total }
        #expect(totals == Array(1...50))
    }

    @Test func aBoundaryChangedByAnotherWriterIsFoldedBeforeDecidingAgain() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let first = CommandHandler(store: log.store)
        let second = CommandHandler(store: log.store)  // its own cache, like another process's
        _ = try await first.handle(Tally.self, .add(tally: "t", amount: 5), metadata: metadata())
        _ = try await second.handle(Tally.self, .add(tally: "t", amount: 7), metadata: metadata())
        let outcome = try await first.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata())
        #expect(outcome.events == [.added(.init(tally: "t", amount: 1, total: 13))], "the cached fold caught up with the other writer")
        #expect(first.cachedStates == 1)
    }

    @Test func aConflictInjectedBetweenReadAndAppendIsRetriedAndCanBeRefused() async throws {
        let log = try TestStore()
        defer { log.remove() }
        // Before the handler's first append, someone else claims the same name.
        let racing = RacingStore(base: log.store) { store in
            _ = try await store.append(AppendRequest(
                events: [ProposedEvent(streamID: "name-u9", type: "names.claimed", tags: ["name:ann", "user:u9"],
                                       data: try EventJSON.encode(Names.Event.Claimed(name: "ann", userID: "u9")))],
                metadata: AppendMetadata(actor: "u9")
            ))
        }
        let handler = CommandHandler(store: racing)
        await #expect(throws: CommandFailure<Names.Failure>.rejected(.taken)) {
            try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1"))
        }
        // One append, whose condition failed; the second decision refused before appending. Without the
        // retry the failed condition would have surfaced as a log error, not as the domain's refusal.
        #expect(racing.appendCalls == 1)
        #expect(handler.conflictsSeen == 1)
        #expect(try log.store.headPosition() == 1)

        let impatient = CommandHandler(store: RacingStore(base: log.store) { store in
            _ = try await store.append(AppendRequest(
                events: [ProposedEvent(streamID: "tally-t", type: "tally.added", tags: ["tally:t"],
                                       data: try EventJSON.encode(Tally.Event.Added(tally: "t", amount: 1, total: 1)))],
                metadata: AppendMetadata(actor: "other")
            ))
        }, attemptsMax: 1)
        await #expect(throws: CommandFailure<Tally.Failure>.contention(attempts: 1)) {
            try await impatient.handle(Tally.self, .add(tally: "t", amount: 2), metadata: metadata())
        }
    }

    @Test func aBoundaryLongerThanAPageIsFoldedCompletely() async throws {
        let log = try TestStore()
        defer { log.remove() }
        for batch in 0..<5 {
            let events = try (0..<500).map { index in
                ProposedEvent(streamID: "tally-t", type: "tally.added", tags: ["tally:t"],
                              data: try EventJSON.encode(Tally.Event.Added(tally: "t", amount: 1, total: batch * 500 + index + 1)))
            }
            _ = try await log.store.append(AppendRequest(events: events, metadata: AppendMetadata(actor: "seed")))
        }
        let outcome = try await CommandHandler(store: log.store).handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata())
        #expect(outcome.events == [.added(.init(tally: "t", amount: 1, total: 2_501))])
        #expect(outcome.position == 2_501)
    }

    @Test func anUndecodableStoredEventIsReportedNotSkipped() async throws {
        let log = try TestStore()
        defer { log.remove() }
        _ = try await log.store.append(AppendRequest(
            events: [ProposedEvent(streamID: "tally-t", type: "tally.added", tags: ["tally:t"], data: Data(#"{"nonsense":true}"#.utf8))],
            metadata: AppendMetadata(actor: "seed")
        ))
        do {
            _ = try await CommandHandler(store: log.store).handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata())
            Issue.record("a boundary with an undecodable event was decided")
        } catch let .undecodableEvent(position, type, reason) {
            // The failure names the event and what its data lacks, so an operator can find both.
            #expect(position == 1 && type == "tally.added")
            #expect(reason.contains("tally"), "\(reason)")
        } catch {
            Issue.record("expected undecodableEvent, got \(error)")
        }
        #expect(try log.store.headPosition() == 1)
    }
}

/// An `EventStore` that lets a rival append just before the first append it forwards, so the
/// handler's condition fails exactly once.
final class RacingStore: EventStore, @unchecked Sendable {
    let base: LMDBEventStore
    private let rival: @Sendable (LMDBEventStore) async throws -> Void
    private let lock = NSLock()
    private var calls = 0

    init(base: LMDBEventStore, rival: @escaping @Sendable (LMDBEventStore) async throws -> Void) {
        self.base = base
        self.rival = rival
    }

    var appendCalls: Int { lock.withLock { calls } }

    func append(_ request: AppendRequest) async throws(EventLogError) -> AppendResult {
        try await append(contentsOf: [request])[0].get()
    }

    func append(contentsOf requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>] {
        let call = lock.withLock { calls += 1; return calls }
        if call == 1 { try? await rival(base) }
        return await base.append(contentsOf: requests)
    }

    func readStream(_ streamID: String, from version: UInt64, direction: ReadDirection, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        try base.readStream(streamID, from: version, direction: direction, limit: limit)
    }
    func readAll(from position: UInt64, direction: ReadDirection, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        try base.readAll(from: position, direction: direction, limit: limit)
    }
    func readBatch(from position: UInt64, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        try base.readBatch(from: position, limit: limit)
    }
    func events(at positions: [UInt64]) throws(EventLogError) -> [RecordedEvent] {
        try base.events(at: positions)
    }
    func readCategory(_ category: String, from position: UInt64, direction: ReadDirection, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        try base.readCategory(category, from: position, direction: direction, limit: limit)
    }
    func readTag(_ tag: String, from position: UInt64, direction: ReadDirection, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        try base.readTag(tag, from: position, direction: direction, limit: limit)
    }
    func readType(_ type: String, from position: UInt64, direction: ReadDirection, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        try base.readType(type, from: position, direction: direction, limit: limit)
    }
    func read(matching query: EventQuery, after position: UInt64, limit: Int) throws(EventLogError) -> QueryResult {
        try base.read(matching: query, after: position, limit: limit)
    }
    func appendResult(ofCommand commandID: UUID) throws(EventLogError) -> AppendResult? {
        try base.appendResult(ofCommand: commandID)
    }
    func streamVersion(_ streamID: String) throws(EventLogError) -> UInt64? { try base.streamVersion(streamID) }
    func headPosition() throws(EventLogError) -> UInt64 { try base.headPosition() }
    func subscribe(from position: UInt64) -> EventSubscription { base.subscribe(from: position) }
}
