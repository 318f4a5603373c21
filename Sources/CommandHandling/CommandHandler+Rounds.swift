import EventLog
import EventSourcing
import Foundation

extension CommandHandler {
    /// Decides `round`, the commands waiting on one boundary, as one chain: one fold, each
    /// command decided on the state the earlier ones leave, one submission. Finishes every
    /// command it can and returns those to decide again on a fresh fold: those whose link the log
    /// refused because another process changed the boundary, and every link after it.
    ///
    /// A command with expected versions (`If-Match`) ends the chain: the log may refuse it for a
    /// stream that moved on, however well it was decided, and a link after it would then fail
    /// with it. The commands after it wait for the next round instead, so a stale precondition
    /// fails only its own command.
    func decide<D: Decider>(_ decider: D.Type, _ boundary: Boundary, _ round: [PendingCommand<D>]) async -> [PendingCommand<D>] {
        let query = boundary.eventQuery
        let start: (state: D.State, position: UInt64)
        do {
            start = try await currentState(D.self, boundary, query)
        } catch {
            for pending in round { pending.finish(.failure(error)) }
            return []
        }
        var state = start.state
        var links: [Link<D>] = []
        var requests: [AppendRequest] = []
        var deferred: [PendingCommand<D>] = []
        var commandIDs: Set<UUID> = []
        var chainEnded = false
        for pending in round {
            guard !chainEnded else {
                deferred.append(pending)
                continue
            }
            // The same command twice (a retry racing its first try) is decided in the next
            // round, on a fold that holds the first one's events, where the log replays it.
            guard commandIDs.insert(pending.metadata.commandID).inserted else {
                deferred.append(pending)
                continue
            }
            let events: [D.Event]
            do {
                events = try D.decide(pending.command, state: state, metadata: pending.metadata)
            } catch {
                pending.finish(.failure(.rejected(error)))
                continue
            }
            // Nothing to do is an answer too, but one given on the chain so far: it is only true
            // once the links before it are durable, and its position is theirs. A command a
            // client may retry (it has a fingerprint) is recorded though it appends no event, so
            // the retry is answered the same and its key cannot be taken for another command.
            // A precondition is checked by the log even when there is nothing to append: a
            // command on an entity that changed is refused whatever it would have done.
            guard !events.isEmpty || pending.metadata.fingerprint != nil || !pending.expectedVersions.isEmpty else {
                links.append(Link(pending: pending, events: [], stateAfter: state, request: nil, dependsOn: requests.indices.last))
                continue
            }
            do {
                let request = try appendRequest(
                    D.self, events, after: start.position, query: query, metadata: pending.metadata,
                    expectedVersions: pending.expectedVersions, follows: requests.last?.metadata.commandID)
                requests.append(request)
            } catch {
                pending.finish(.failure(error))
                continue
            }
            chainEnded = !pending.expectedVersions.isEmpty
            state = D.fold(events, from: state)
            links.append(Link(pending: pending, events: events, stateAfter: state, request: requests.count - 1, dependsOn: nil))
        }
        let results = requests.isEmpty ? [] : await store.append(contentsOf: requests)
        return await settle(D.self, boundary, links, results, start: start) + deferred
    }

    /// Answers each link from its append's outcome; returns the links to decide again.
    private func settle<D: Decider>(
        _ decider: D.Type, _ boundary: Boundary, _ links: [Link<D>], _ results: [Result<AppendResult, EventLogError>],
        start: (state: D.State, position: UInt64)
    ) async -> [PendingCommand<D>] {
        var again: [PendingCommand<D>] = []
        // The state after the chain's longest prefix the log took as decided: worth caching.
        var durable: (state: D.State, position: UInt64)?
        var intact = true
        for link in links {
            let pending = link.pending
            guard let index = link.request else {
                // An empty decision holds if every link it saw is durable as it was decided.
                guard let dependency = link.dependsOn else {
                    pending.finish(.success(CommandOutcome(events: [], position: start.position, isReplay: false, state: link.stateAfter)))
                    continue
                }
                if case let .success(result) = results[dependency], !result.isReplay {
                    pending.finish(.success(CommandOutcome(events: [], position: result.lastPosition, isReplay: false, state: link.stateAfter)))
                } else {
                    again.append(pending)
                }
                continue
            }
            switch results[index] {
            case let .success(result) where result.isReplay:
                // The command id was taken before this round's fold: its first outcome stands,
                // and the links after it fail their `follows` check.
                intact = false
                do {
                    pending.finish(.success(try await replay(D.self, result, boundary: boundary, metadata: pending.metadata)))
                } catch {
                    pending.finish(.failure(error))
                }
            case let .success(result):
                // The log checked the chain up to this link: no boundary event lies between the
                // fold's position and this link but the chain's own.
                if intact { durable = (link.stateAfter, result.lastPosition) }
                pending.finish(.success(CommandOutcome(events: link.events, position: result.lastPosition, isReplay: false, state: link.stateAfter)))
            case let .failure(.wrongExpectedVersion(streamID, expected, actual)):
                // Only a caller's precondition sets expected versions: the entity it read has
                // changed since (maybe by an earlier link of this chain). Its business, not ours
                // to decide again.
                intact = false
                pending.finish(.failure(.preconditionFailed(streamID: streamID, expected: expected, actual: actual)))
            case .failure(.commandIDReused):
                intact = false
                pending.finish(.failure(.idempotencyKeyReused))
            case .failure(.appendConditionFailed), .failure(.predecessorMissing):
                intact = false
                conflicts.add(1, ordering: .relaxed)
                pending.attempts += 1
                if pending.attempts >= attemptsMax {
                    pending.finish(.failure(.contention(attempts: attemptsMax)))
                } else {
                    again.append(pending)
                }
            case let .failure(error):
                intact = false
                pending.finish(.failure(.log(error)))
            }
        }
        if let durable { cache.store(durable.state, at: durable.position, of: D.self, boundary) }
        return again
    }
}

/// One command of a chain: what it decided and which append carries it.
struct Link<D: Decider> {
    let pending: PendingCommand<D>
    let events: [D.Event]
    let stateAfter: D.State
    /// Its request's index in the chain's submission; nil when it decided nothing.
    let request: Int?
    /// For a command that decided nothing: the last request before it, whose success it needs.
    let dependsOn: Int?
}

/// A command waiting on its boundary, and, once decided, its outcome.
///
/// Unchecked: `outcome` and `attempts` are written only by the task leading the boundary, and
/// the command's own task reads `outcome` after that task has resumed it (or after leading
/// itself); `wake` is set under the batcher's lock before any leader can see the command.
final class PendingCommand<D: Decider>: BatchedCommand, @unchecked Sendable {
    let command: D.Command
    let metadata: CommandMetadata
    /// The versions the caller expects of streams (its `If-Match`); empty for none.
    let expectedVersions: [String: ExpectedVersion]
    var attempts = 0
    var outcome: Result<CommandOutcome<D>, CommandFailure<D.Failure>>?
    var wake: CheckedContinuation<BoundaryBatcher.Role, Never>?

    init(_ command: D.Command, metadata: CommandMetadata, expectedVersions: [String: ExpectedVersion] = [:]) {
        self.command = command
        self.metadata = metadata
        self.expectedVersions = expectedVersions
    }

    /// Records the outcome and wakes the command's task if it waits.
    func finish(_ outcome: Result<CommandOutcome<D>, CommandFailure<D.Failure>>) {
        precondition(self.outcome == nil, "a command is answered once")
        self.outcome = outcome
        resume(.done)
    }
}
