import EventLog
import EventSourcing

/// Appends domain events in requests of `eventsPerAppend`, as the app logs of `rebuild` are
/// filled: one writer, large requests, no fsync (the store decides), so filling is quick and
/// what is measured afterwards is the projections alone.
struct DomainEventBatch {
    let store: LMDBEventStore
    var eventsPerAppend = 1_000
    private var pending: [ProposedEvent] = []
    /// Events appended so far.
    private(set) var written = 0

    init(store: LMDBEventStore) {
        self.store = store
    }

    /// Queues `event`, appending the batch once it is full.
    mutating func add(_ event: some DomainEvent) async throws {
        pending.append(ProposedEvent(streamID: event.streamID, type: event.typeName, tags: event.tags, data: try event.encodeData()))
        if pending.count >= eventsPerAppend { try await flush() }
    }

    /// Appends what is queued and answers how many events were written in all.
    mutating func finish() async throws -> Int {
        try await flush()
        return written
    }

    private mutating func flush() async throws {
        guard !pending.isEmpty else { return }
        _ = try await store.append(AppendRequest(events: pending, metadata: AppendMetadata(actor: "bench")))
        written += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}
