import EventLog
import EventSourcing
import Foundation
import Synchronization
import Testing
@testable import CommandHandling

/// Expected stream versions (an HTTP `If-Match`): checked by the log inside the append, refused as
/// `preconditionFailed` without a retry, and failing only their own command in a chain.
@Suite("Command handler: expected versions", .timeLimit(.minutes(3)))
struct ExpectedVersionTests {
    /// Adds 1 to tally `t`, expecting its stream (`tally-t`) at `version` when given.
    private func add(_ handler: CommandHandler<some EventStore>, expecting version: UInt64? = nil) async throws(CommandFailure<Tally.Failure>) -> CommandOutcome<Tally> {
        try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata(),
                                 expectedVersions: version.map { ["tally-t": .exact($0)] } ?? [:])
    }

    /// `add`'s outcome or failure, as a value.
    private func attempt(_ handler: CommandHandler<some EventStore>, expecting version: UInt64) async -> Result<CommandOutcome<Tally>, CommandFailure<Tally.Failure>> {
        do throws(CommandFailure<Tally.Failure>) {
            return .success(try await add(handler, expecting: version))
        } catch {
            return .failure(error)
        }
    }

    @Test func aStaleVersionIsPreconditionFailedAppendsNothingAndIsNotRetried() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let counting = RacingStore(base: log.store) { _ in }
        let handler = CommandHandler(store: counting)
        _ = try await add(handler)
        _ = try await add(handler)  // tally-t is at version 1 now
        let calls = counting.appendCalls
        await #expect(throws: CommandFailure<Tally.Failure>.preconditionFailed(streamID: "tally-t", expected: .exact(0), actual: 1)) {
            try await add(handler, expecting: 0)
        }
        #expect(try log.store.headPosition() == 2 && log.store.streamVersion("tally-t") == 1, "nothing appended")
        #expect(counting.appendCalls == calls + 1 && handler.conflictsSeen == 0, "submitted once, not decided again")
    }

    @Test func theCurrentVersionIsAppendedAndMovesTheStreamOn() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        _ = try await add(handler)
        let outcome = try await add(handler, expecting: 0)
        #expect(outcome.state == 2 && outcome.position == 2)
        #expect(try log.store.streamVersion("tally-t") == 1)
        // The version it read is gone now: the same precondition again fails.
        await #expect(throws: CommandFailure<Tally.Failure>.preconditionFailed(streamID: "tally-t", expected: .exact(0), actual: 1)) {
            try await add(handler, expecting: 0)
        }
    }

    @Test func anExpectationOfAStreamNotYetWrittenFails() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        await #expect(throws: CommandFailure<Tally.Failure>.preconditionFailed(streamID: "tally-t", expected: .exact(0), actual: nil)) {
            try await add(handler, expecting: 0)
        }
        #expect(try log.store.headPosition() == 0)
    }

    /// A command that decides nothing is still refused when the entity changed: the precondition
    /// is the request's, whatever the decision.
    @Test func aPreconditionIsCheckedEvenWhenTheDecisionIsEmpty() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        _ = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1"))
        let claimAgain = { (version: UInt64) async throws(CommandFailure<Names.Failure>) -> CommandOutcome<Names> in
            try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1"),
                                     expectedVersions: ["name-u1": .exact(version)])
        }
        await #expect(throws: CommandFailure<Names.Failure>.preconditionFailed(streamID: "name-u1", expected: .exact(3), actual: 0)) {
            try await claimAgain(3)
        }
        let current = try await claimAgain(0)
        #expect(current.events.isEmpty && current.position == 1)
        #expect(try log.store.headPosition() == 1)
    }

    /// Commands queued on one boundary are decided as one chain. One whose expected version an
    /// earlier link of the same chain moves on fails alone: the link before it lands, and the
    /// command after it is decided in the next round, not failed or counted as a conflict.
    @Test func inAChainAStaleExpectationFailsAloneAndTheOthersLand() async throws {
        let log = try TestStore()
        defer { log.remove() }
        // The first append is held back until the others have queued behind it, in order, and
        // form one chain: waited for, not slept for (on a loaded machine a 50 ms head start was
        // not enough for a command to reach its queue).
        let gate = Gate()
        let slowFirst = RacingStore(base: log.store) { _ in
            while !gate.isOpen { try await Task.sleep(for: .milliseconds(2)) }
        }
        let handler = CommandHandler(store: slowFirst)
        _ = try await log.store.append(AppendRequest(
            events: [ProposedEvent(streamID: "other-1", type: "other.happened", data: Data("{}".utf8))], metadata: AppendMetadata(actor: "u")))
        _ = try await add(CommandHandler(store: log.store))  // tally-t at version 0, at position 2
        async let first = add(handler)  // in flight: moves tally-t to version 1
        try await Self.waitFor("the first append in flight") { slowFirst.appendCalls == 1 }
        async let second = add(handler)  // queued: version 2
        try await Self.waitFor("the second queued") { handler.commandsQueued == 1 }
        // Queued after `second` and expecting the version `first` leaves: stale once `second` lands.
        async let stale = attempt(handler, expecting: 1)
        try await Self.waitFor("the stale one queued") { handler.commandsQueued == 2 }
        async let after = add(handler)  // queued behind the stale one
        try await Self.waitFor("the last queued") { handler.commandsQueued == 3 }
        gate.open()
        let outcomes = try await (first, second, stale, after)
        #expect(outcomes.0.state == 2 && outcomes.1.state == 3 && outcomes.3.state == 4, "every other command landed, in order")
        #expect(outcomes.2 == .failure(.preconditionFailed(streamID: "tally-t", expected: .exact(1), actual: 2)))
        #expect(handler.conflictsSeen == 0, "the command after the stale one was not failed and decided again")
        #expect(slowFirst.appendCalls == 3, "the first; the second and the stale one as a chain; the last in a round of its own")
        #expect(try log.store.headPosition() == 5 && log.store.streamVersion("tally-t") == 3)
    }

    /// Polls `condition` until it holds, for at most a minute (the limit ends a hang; it does not time anything).
    private static func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "timed out waiting for \(what)")
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Opened once, from any task.
    private final class Gate: Sendable {
        private let opened = Atomic<Bool>(false)
        var isOpen: Bool { opened.load(ordering: .acquiring) }
        func open() { opened.store(true, ordering: .releasing) }
    }

    /// Two editors holding the same version, at once: one lands, every other is refused.
    @Test func racingCommandsExpectingOneVersionHaveExactlyOneWinner() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        _ = try await add(handler)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { (try? await add(handler, expecting: 0)) != nil }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        #expect(try log.store.streamVersion("tally-t") == 1 && log.store.headPosition() == 2)
    }
}
