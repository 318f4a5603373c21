import EventLog
import EventSourcing
import Foundation

/// Appends domain events as the app logs of `rebuild` are filled: each event in an append of its
/// actor's (the user whose command it was, as a server records it), consecutive events of one
/// actor in one append, `eventsPerSubmit` events' appends handed to the log at once. One writer,
/// no fsync (the store decides), so filling is quick and what is measured afterwards is the
/// projections alone.
///
/// The actor is the user, not one name for the whole log: every read model keyed by actor
/// (`accounts.activity`) then has a list per user, as on a server, and not one list appended
/// at the end of its table.
struct DomainEventBatch {
    let store: LMDBEventStore
    /// Seals each event as a server's command handler does (`plain`: as decided).
    let sealer: EventSealer
    var eventsPerSubmit = 1_000
    private var requests: [AppendRequest] = []
    private var pendingEvents = 0
    /// Events appended so far.
    private(set) var written = 0

    init(store: LMDBEventStore, sealer: EventSealer = .plain) {
        self.store = store
        self.sealer = sealer
    }

    /// Queues `event`, done by `actor`, appending what is queued once it holds
    /// `eventsPerSubmit` events.
    mutating func add(_ event: some DomainEvent, by actor: String) async throws {
        let proposed = ProposedEvent(
            streamID: event.streamID, type: event.typeName, schemaVersion: event.schemaVersion, tags: sealer.tags(of: event),
            data: try sealer.data(of: event))
        if let last = requests.indices.last, requests[last].metadata.actor == actor,
           requests[last].events.count < store.options.limits.eventsPerAppendMax {
            requests[last].events.append(proposed)
        } else {
            requests.append(AppendRequest(events: [proposed], metadata: AppendMetadata(actor: actor)))
        }
        pendingEvents += 1
        if pendingEvents >= eventsPerSubmit { try await flush() }
    }

    /// Decides `command` for `actor` at `now` on `state` as a server would, queues what it
    /// decided and folds that into `state`: a log of the events the domain itself writes.
    mutating func decide<D: Decider>(
        _ command: D.Command, with decider: D.Type, state: inout D.State, by actor: String, at now: Date
    ) async throws {
        let events = try D.decide(command, state: state, metadata: CommandMetadata(actor: actor, now: now, commandID: UUID()))
        for event in events {
            D.evolve(&state, event)
            try await add(event, by: actor)
        }
    }

    /// Appends what is queued and answers how many events were written in all.
    mutating func finish() async throws -> Int {
        try await flush()
        return written
    }

    private mutating func flush() async throws {
        guard !requests.isEmpty else { return }
        for result in await store.append(contentsOf: requests) {
            let appended = try result.get()
            written += Int(appended.lastPosition - appended.firstPosition + 1)
        }
        requests.removeAll(keepingCapacity: true)
        pendingEvents = 0
    }
}
