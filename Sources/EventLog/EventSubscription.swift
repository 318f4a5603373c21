/// A live, ordered feed of the log from a position: it reads what is stored in pages, then waits
/// for commits and reads on. Positions are read in order from the log itself, so there is never
/// a gap or a duplicate, and waiting costs the writer nothing.
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent
    public typealias Failure = EventLogError

    /// Events read per page while catching up.
    static let pageEvents = 256

    let store: LMDBEventStore
    let from: UInt64

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, nextPosition: from)
    }

    /// Reads pages of events and waits at the head.
    public struct Iterator: AsyncIteratorProtocol {
        let store: LMDBEventStore
        var nextPosition: UInt64
        var buffer: [RecordedEvent] = []
        var index = 0

        public mutating func next() async throws(EventLogError) -> RecordedEvent? {
            while !Task.isCancelled {
                if index < buffer.count {
                    defer { index += 1 }
                    assert(buffer[index].position == nextPosition - UInt64(buffer.count - index), "pages are contiguous")
                    return buffer[index]
                }
                buffer = try store.readAll(from: nextPosition, direction: .forward, limit: EventSubscription.pageEvents)
                index = 0
                if let last = buffer.last {
                    assert(buffer.first?.position == nextPosition, "no gap between pages")
                    nextPosition = last.position + 1
                    continue
                }
                guard await store.waitForEvent(at: nextPosition) else {
                    // Closed: deliver anything committed before the close, then end.
                    buffer = try store.readAll(from: nextPosition, direction: .forward, limit: EventSubscription.pageEvents)
                    if let last = buffer.last { nextPosition = last.position + 1; continue }
                    return nil
                }
            }
            return nil
        }
    }
}
