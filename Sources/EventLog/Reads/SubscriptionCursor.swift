/// The walk every subscription makes, whatever its log: read a page from the next position,
/// hand its events out in order, and at the head wait for a commit (or the log's end) and read
/// on. Positions are read in order from the log itself, so there is never a gap or a duplicate.
package struct SubscriptionCursor: Sendable {
    /// Events read per page while catching up.
    package static let pageEvents = 256

    private var nextPosition: UInt64
    private var buffer: [RecordedEvent] = []
    private var index = 0

    package init(from position: UInt64) {
        nextPosition = max(position, 1)
    }

    /// The next event; nil when the task is cancelled, or the log closed and everything committed
    /// before the close has been handed out. `read` reads a page from a position; `wait` waits
    /// at the head and answers false once the log is closed.
    package mutating func next(
        read: (UInt64) async throws(EventLogError) -> [RecordedEvent], wait: (UInt64) async -> Bool
    ) async throws(EventLogError) -> RecordedEvent? {
        while !Task.isCancelled {
            if index < buffer.count {
                defer { index += 1 }
                assert(buffer[index].position == nextPosition - UInt64(buffer.count - index), "pages are contiguous")
                return buffer[index]
            }
            do throws(EventLogError) {
                buffer = try await read(nextPosition)
            } catch where Task.isCancelled {
                // A read the cancellation cut short (PostgreSQL's query then fails as the log
                // closed): the caller asked to stop, so this is the end, not a failure.
                return nil
            }
            index = 0
            if let last = buffer.last {
                assert(buffer.first?.position == nextPosition, "no gap between pages")
                nextPosition = last.position + 1
                continue
            }
            guard await wait(nextPosition) else {
                // Closed: deliver anything committed before the close (a store that refuses reads
                // once closed has nothing more to give), then end.
                buffer = (try? await read(nextPosition)) ?? []
                if let last = buffer.last { nextPosition = last.position + 1; continue }
                return nil
            }
        }
        return nil
    }
}
