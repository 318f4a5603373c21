import EventLog

/// A live, ordered feed of a PostgreSQL log from a position: pages of what is stored, then a
/// wait for the next commit (this server's, another's through NOTIFY, or a poll) and on. Since
/// positions commit in order, reading on from the last one seen never skips a late commit.
public struct PostgresSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent
    public typealias Failure = EventLogError

    let store: PostgresEventStore
    let from: UInt64

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, cursor: SubscriptionCursor(from: from))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let store: PostgresEventStore
        var cursor: SubscriptionCursor

        public mutating func next() async throws(EventLogError) -> RecordedEvent? {
            let store = store
            return try await cursor.next(
                read: { position throws(EventLogError) in
                    try await store.readAll(from: position, direction: .forward, limit: SubscriptionCursor.pageEvents)
                },
                wait: { await store.waitForEvent(at: $0) }
            )
        }
    }
}
