import EventLog

/// A live, ordered feed of a PostgreSQL log from a position: pages of what is stored, then a
/// wait for the next commit (this server's, another's through NOTIFY, or a poll) and on. Since
/// positions commit in order, reading on from the last one seen never skips a late commit.
public struct PostgresSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent
    public typealias Failure = EventLogError

    /// Events read per page while catching up.
    static let pageEvents = 256

    let store: PostgresEventStore
    let from: UInt64

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, nextPosition: from)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let store: PostgresEventStore
        var nextPosition: UInt64
        var buffer: [RecordedEvent] = []
        var index = 0

        public mutating func next() async throws(EventLogError) -> RecordedEvent? {
            while !Task.isCancelled {
                if index < buffer.count {
                    defer { index += 1 }
                    return buffer[index]
                }
                buffer = try await store.readAll(from: nextPosition, direction: .forward, limit: PostgresSubscription.pageEvents)
                index = 0
                if let last = buffer.last {
                    assert(buffer.first?.position == nextPosition, "no gap between pages")
                    nextPosition = last.position + 1
                    continue
                }
                guard await store.waitForEvent(at: nextPosition) else { return nil }
            }
            return nil
        }
    }
}
