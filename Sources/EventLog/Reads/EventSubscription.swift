/// A live, ordered feed of the log from a position: it reads what is stored in pages, then waits
/// for commits and reads on. Positions are read in order from the log itself, so there is never
/// a gap or a duplicate, and waiting costs the writer nothing.
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent
    public typealias Failure = EventLogError

    let store: LMDBEventStore
    let from: UInt64

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, cursor: SubscriptionCursor(from: from))
    }

    /// Reads pages of events and waits at the head.
    public struct Iterator: AsyncIteratorProtocol {
        let store: LMDBEventStore
        var cursor: SubscriptionCursor

        public mutating func next() async throws(EventLogError) -> RecordedEvent? {
            let store = store
            return try await cursor.next(
                read: { position throws(EventLogError) in
                    try store.readAll(from: position, direction: .forward, limit: SubscriptionCursor.pageEvents)
                },
                wait: { await store.waitForEvent(at: $0) }
            )
        }
    }
}
