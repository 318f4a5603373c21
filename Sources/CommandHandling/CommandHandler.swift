import EventLog
import EventSourcing
import Foundation
import Synchronization

/// Carries out commands: load the boundary, fold, decide, append on the condition that the
/// boundary did not change meanwhile, and decide again (a bounded number of times) if it did.
/// Commands on one boundary in this process are decided together as a chain (`BoundaryBatcher`,
/// `decide(_:_:_:)`), so they never fail one another's condition.
///
/// Idempotent by command id: a command whose id the log knows is not decided again; its first
/// outcome is read back from the log, so a retried "create" answers with the ids it made first.
/// A command with a fingerprint (`CommandMetadata.fingerprint`) is a retry only if the first
/// one's fingerprint matches; else it is refused as `idempotencyKeyReused`.
///
/// A command may carry expected stream versions (an HTTP `If-Match`): the log checks them inside
/// the append, and a stream that moved on is `preconditionFailed`, never decided again: the
/// client saw an older entity, and only it can tell whether its change still makes sense.
///
/// Personal data passes one explicit step each way (ADR 0015): `sealer` seals the plain events a
/// decider returns and keys their personal tags, and keys those of the boundary before it is
/// read; the boundary's events are opened with its keyring, so a decider sees plain values.
public final class CommandHandler<Store: EventStore>: Sendable {
    /// The log commands append to.
    public let store: Store
    /// Seals what deciders return, keys their boundaries' personal tags, opens what they read.
    public let sealer: EventSealer
    /// Decisions per command before giving up under contention.
    public let attemptsMax: Int
    /// Events read per page while folding a boundary.
    static var pageEvents: Int { 1_000 }
    let cache: StateCache
    let batcher = BoundaryBatcher()
    let conflicts = Atomic<Int>(0)

    /// A handler on `store` caching up to `cachedStatesMax` folded boundaries, its events sealed
    /// by `sealer` (a server's has the keyring; `plain` stores events as decided).
    public init(store: Store, sealer: EventSealer = .plain, attemptsMax: Int = 8, cachedStatesMax: Int = 10_000) {
        precondition(attemptsMax >= 1, "a command is decided at least once")
        self.store = store
        self.sealer = sealer
        self.attemptsMax = attemptsMax
        cache = StateCache(entriesMax: cachedStatesMax)
    }

    /// Folded boundaries currently cached.
    public var cachedStates: Int { cache.count }
    /// Appends refused because the boundary changed after the decision (each one decided
    /// again): what deciding a boundary's commands in chains keeps at zero within a process.
    public var conflictsSeen: Int { conflicts.load(ordering: .relaxed) }
    /// Commands that waited behind another on their boundary, to be decided in its chain.
    public var commandsQueued: Int { batcher.queued }

    /// Decides and appends `command`; see the type's documentation. `expectedVersions` are the
    /// versions the caller last saw of the entities' streams (empty: no precondition).
    public func handle<D: Decider>(
        _ decider: D.Type, _ command: D.Command, metadata: CommandMetadata,
        expectedVersions: [String: ExpectedVersion] = [:]
    ) async throws(CommandFailure<D.Failure>) -> CommandOutcome<D> {
        let boundary = sealer.boundary(D.boundary(of: command), of: D.Event.self)
        if let known = try await logged(D.self, { () async throws(EventLogError) in try await store.appendResult(ofCommand: metadata.commandID) }) {
            return try await replay(D.self, known, boundary: boundary, metadata: metadata)
        }
        let key = BoundaryBatcher.Key(decider: ObjectIdentifier(D.self), boundary: boundary)
        let pending = PendingCommand<D>(command, metadata: metadata, expectedVersions: expectedVersions)
        if await batcher.join(key, pending) == .lead {
            await lead(D.self, key, until: pending)
        }
        return try pending.outcome!.get()
    }

    /// Decides rounds of `key`'s waiting commands until `own` is done, then hands the lead on.
    private func lead<D: Decider>(_ decider: D.Type, _ key: BoundaryBatcher.Key, until own: PendingCommand<D>) async {
        while own.outcome == nil {
            // Only commands of `D` wait under a key naming `D`.
            let round = batcher.takeAll(key).map { $0 as! PendingCommand<D> }
            precondition(!round.isEmpty, "the leader's own command waits until it is done")
            let again = await decide(D.self, key.boundary, round)
            batcher.requeue(key, again)
        }
        batcher.handOff(key)
    }

    /// The boundary's state now: the cached fold, caught up with the boundary's newer events.
    func currentState<D: Decider>(
        _ decider: D.Type, _ boundary: Boundary, _ query: EventQuery
    ) async throws(CommandFailure<D.Failure>) -> (D.State, UInt64) {
        var (state, position) = cache.state(of: D.self, boundary) ?? (D.initialState, 0)
        while true {
            let after = position
            let page = try await logged(D.self) { () async throws(EventLogError) in
                try await store.read(matching: query, after: after, limit: Self.pageEvents)
            }
            for event in page.events {
                if let decoded = try decode(D.self, event) { D.evolve(&state, decoded) }
            }
            // An empty page means every boundary event up to `checkedUpTo` is folded.
            guard let last = page.events.last else {
                position = max(position, page.checkedUpTo)
                break
            }
            position = last.position
        }
        cache.store(state, at: position, of: D.self, boundary)
        return (state, position)
    }

    func appendRequest<D: Decider>(
        _ decider: D.Type, _ events: [D.Event], after position: UInt64, query: EventQuery, metadata: CommandMetadata,
        expectedVersions: [String: ExpectedVersion] = [:], follows: UUID? = nil
    ) throws(CommandFailure<D.Failure>) -> AppendRequest {
        do {
            let proposed = try events.map {
                ProposedEvent(
                    streamID: $0.streamID, type: $0.typeName, schemaVersion: $0.schemaVersion, tags: sealer.tags(of: $0), data: try sealer.data(of: $0))
            }
            return AppendRequest(
                events: proposed,
                expectedVersions: expectedVersions,
                condition: AppendCondition(failIfEventsMatch: query, after: position),
                metadata: AppendMetadata(
                    commandID: metadata.commandID, correlationID: metadata.correlationID,
                    causationID: metadata.causationID, actor: metadata.actor, fingerprint: metadata.fingerprint
                ),
                follows: follows
            )
        } catch let PersonalDataError.keyStore(_, reason) {
            throw .keysUnavailable(reason: reason)
        } catch {
            // Encoding our own Codable payloads cannot fail short of a programming error.
            throw .undecodableEvent(position: 0, type: events.first?.typeName ?? "", reason: "encoding failed: \(error)")
        }
    }

    /// The first outcome of a known command id, read back from the log.
    func replay<D: Decider>(
        _ decider: D.Type, _ result: AppendResult, boundary: Boundary, metadata: CommandMetadata
    ) async throws(CommandFailure<D.Failure>) -> CommandOutcome<D> {
        // Another command under this id: its outcome is neither this one's nor this caller's to see.
        if let fingerprint = metadata.fingerprint, let recorded = result.fingerprint, recorded != fingerprint {
            throw .idempotencyKeyReused
        }
        let count = result.eventCount
        var recorded: [RecordedEvent] = []
        while recorded.count < count {
            let from = result.firstPosition + UInt64(recorded.count)
            recorded += try await logged(D.self) { () async throws(EventLogError) in
                try await store.readAll(from: from, direction: .forward, limit: min(count - recorded.count, Self.pageEvents))
            }
        }
        var events: [D.Event] = []
        for event in recorded {
            // Another actor's key, or one first used for another domain's command, must not
            // reveal that command's outcome.
            guard event.actor == metadata.actor, event.commandID == metadata.commandID,
                  let decoded = try decode(D.self, event) else { throw .idempotencyKeyReused }
            events.append(decoded)
        }
        let state = try await state(D.self, of: boundary, through: result.lastPosition)
        return CommandOutcome(events: events, position: result.lastPosition, isReplay: true, state: state)
    }

    /// The boundary's state as it was right after `position`: what a replayed command answers
    /// from (a retried completion's total is the first answer's, not today's).
    private func state<D: Decider>(
        _ decider: D.Type, of boundary: Boundary, through position: UInt64
    ) async throws(CommandFailure<D.Failure>) -> D.State {
        var state = D.initialState
        var after: UInt64 = 0
        let query = boundary.eventQuery
        while after < position {
            let from = after
            let page = try await logged(D.self) { () async throws(EventLogError) in
                try await store.read(matching: query, after: from, limit: Self.pageEvents)
            }
            for event in page.events where event.position <= position {
                if let decoded = try decode(D.self, event) { D.evolve(&state, decoded) }
            }
            guard let last = page.events.last else { break }
            after = last.position
        }
        return state
    }

    private func decode<D: Decider>(_ decider: D.Type, _ event: RecordedEvent) throws(CommandFailure<D.Failure>) -> D.Event? {
        do {
            return try D.Event.decode(typeName: event.type, schemaVersion: event.schemaVersion, data: event.data, opening: sealer.keyring)
        } catch let PersonalDataError.keyStore(_, reason) {
            throw .keysUnavailable(reason: reason)
        } catch {
            throw .undecodableEvent(position: event.position, type: event.type, reason: "\(error)")
        }
    }

    /// Runs a log call, reporting its failure as the command's.
    private func logged<T, D: Decider>(
        _ decider: D.Type, _ body: () async throws(EventLogError) -> T
    ) async throws(CommandFailure<D.Failure>) -> T {
        do {
            return try await body()
        } catch {
            throw .log(error)
        }
    }
}
