import EventLog
import EventSourcing
import Foundation
import Testing
@testable import CommandHandling

/// A command id with a fingerprint names one command: its retry replays the first outcome, and
/// the id reused for another command is refused without deciding or revealing anything.
@Suite("Idempotency", .timeLimit(.minutes(3)))
struct IdempotencyTests {
    @Test func aKeyReusedForAnotherCommandIsRefusedAndAppendsNothing() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        let key = UUID()
        // Given one add under the key,
        _ = try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata(commandID: key, fingerprint: fingerprint("add 1")))
        // when the key comes with another add, then it is refused, and nothing more is written.
        await #expect(throws: CommandFailure<Tally.Failure>.idempotencyKeyReused) {
            try await handler.handle(Tally.self, .add(tally: "t", amount: 2), metadata: metadata(commandID: key, fingerprint: fingerprint("add 2")))
        }
        #expect(try log.store.everything().count == 1)
        // A command of another domain under the key, by the same actor, is refused too.
        await #expect(throws: CommandFailure<Names.Failure>.idempotencyKeyReused) {
            try await handler.handle(Names.self, .claim(name: "ann", userID: "user-1"), metadata: metadata(commandID: key, fingerprint: fingerprint("claim ann")))
        }
        #expect(try log.store.everything().count == 1)
    }

    @Test func theSameCommandUnderItsKeyReplaysItsFirstOutcome() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        let same = metadata(commandID: UUID(), fingerprint: fingerprint("add 5"))
        let first = try await handler.handle(Tally.self, .add(tally: "t", amount: 5), metadata: same)
        _ = try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata())
        let retry = try await handler.handle(Tally.self, .add(tally: "t", amount: 5), metadata: same)
        #expect(retry == CommandOutcome(events: first.events, position: first.position, isReplay: true, state: 5))
        #expect(try log.store.everything().count == 2, "the retry appended nothing")
    }

    /// Before fingerprints, a command id was recorded without one: such a command still replays.
    @Test func aCommandRecordedWithoutAFingerprintStillReplays() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        let key = UUID()
        let first = try await handler.handle(Tally.self, .add(tally: "t", amount: 3), metadata: metadata(commandID: key))
        #expect(try log.store.appendResult(ofCommand: key)?.fingerprint == nil)
        let retry = try await handler.handle(Tally.self, .add(tally: "t", amount: 3), metadata: metadata(commandID: key, fingerprint: fingerprint("add 3")))
        #expect(retry.isReplay && retry.events == first.events)
        #expect(try log.store.everything().count == 1)
    }

    /// Deciding nothing is an outcome too: under a fingerprint it is recorded (no event, one
    /// command entry), so its retry answers the same after the data changed, and its key cannot
    /// be taken for another command. Without one nothing is written, as before.
    @Test func aCommandThatDecidesNothingIsRecordedUnderItsKey() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let handler = CommandHandler(store: log.store)
        _ = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1"))
        let unkeyed = metadata("u1")
        #expect(try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: unkeyed).events.isEmpty)
        #expect(try log.store.appendResult(ofCommand: unkeyed.commandID) == nil, "a keyless no-op costs no write")

        let keyed = metadata("u1", fingerprint: fingerprint("claim ann"))
        let nothing = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: keyed)
        #expect(nothing == CommandOutcome(events: [], position: 1, isReplay: false, state: "u1"))
        let recorded = try #require(try log.store.appendResult(ofCommand: keyed.commandID))
        #expect(recorded.eventCount == 0 && recorded.lastPosition == 1 && recorded.fingerprint == keyed.fingerprint)
        #expect(try log.store.everything().count == 1)

        await #expect(throws: CommandFailure<Tally.Failure>.idempotencyKeyReused) {
            try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata("u1", commandID: keyed.commandID, fingerprint: fingerprint("add 1")))
        }
        _ = try await handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata("u1"))
        let retry = try await handler.handle(Names.self, .claim(name: "ann", userID: "u1"), metadata: keyed)
        #expect(retry == CommandOutcome(events: [], position: 1, isReplay: true, state: "u1"))
        #expect(try log.store.everything().count == 2)
        #expect(try log.store.verify().isHealthy, "verify accepts a command entry of no events")
    }

    /// No-ops decided in one chain are recorded in it: the links after them follow them.
    @Test func concurrentNoOpsOnOneBoundaryAreRecordedInTheirChain() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let slowFirst = RacingStore(base: log.store) { _ in try await Task.sleep(for: .milliseconds(50)) }
        let handler = CommandHandler(store: slowFirst)
        let keys = (0..<20).map { _ in UUID() }
        let outcomes = try await withThrowingTaskGroup(of: Int.self) { group in
            for key in keys {
                group.addTask {
                    let outcome = try await handler.handle(
                        Names.self, .claim(name: "ann", userID: "u1"), metadata: metadata("u1", commandID: key, fingerprint: fingerprint("claim ann")))
                    return outcome.events.count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.sorted() == Array(repeating: 0, count: 19) + [1], "one claim, nineteen answered nothing to do")
        #expect(handler.commandsQueued > 0, "the commands did queue on the boundary")
        for key in keys { #expect(try log.store.appendResult(ofCommand: key) != nil) }
        #expect(try log.store.everything().count == 1)
        #expect(try log.store.verify().isHealthy)
    }

    /// A reuse that reaches the log in the same breath as its first use (it passed the check
    /// before the first was durable) is refused by the log's own comparison.
    @Test func aReuseRacingItsFirstUseIsRefused() async throws {
        let log = try TestStore()
        defer { log.remove() }
        let slowFirst = RacingStore(base: log.store) { _ in try await Task.sleep(for: .milliseconds(50)) }
        let handler = CommandHandler(store: slowFirst)
        let key = UUID()
        async let first = handler.handle(Tally.self, .add(tally: "t", amount: 1), metadata: metadata(commandID: key, fingerprint: fingerprint("add 1")))
        try await Task.sleep(for: .milliseconds(10))
        await #expect(throws: CommandFailure<Tally.Failure>.idempotencyKeyReused) {
            try await handler.handle(Tally.self, .add(tally: "t", amount: 2), metadata: metadata(commandID: key, fingerprint: fingerprint("add 2")))
        }
        #expect(try await first.events == [.added(.init(tally: "t", amount: 1, total: 1))])
        #expect(try log.store.everything().count == 1)
    }
}

extension LMDBEventStore {
    /// Every event in the log, oldest first.
    func everything() throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        while true {
            let page = try readAll(from: UInt64(all.count + 1), direction: .forward, limit: 1_000)
            if page.isEmpty { return all }
            all += page
        }
    }
}
