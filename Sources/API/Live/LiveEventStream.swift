import EventLog
import Foundation
import OpenAPIRuntime
import ServiceLifecycle

/// The body of a live response: first what the stream missed after its `Last-Event-ID`, read
/// from the log page by page at the client's pace, then the hub's messages. Ends when the
/// stream does, and at the server's graceful shutdown.
struct LiveEventStream: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let lease: LiveLease
    /// Positions to read from the log before the live messages (they follow on without a gap:
    /// the hub sends only what comes after the range's end).
    let catchUp: ClosedRange<UInt64>?

    func makeAsyncIterator() -> Iterator {
        Iterator(lease: lease, nextCatchUp: catchUp?.lowerBound, catchUpEnd: catchUp?.upperBound ?? 0)
    }

    struct Iterator: AsyncIteratorProtocol {
        let lease: LiveLease
        var opened = false
        var nextCatchUp: UInt64?
        let catchUpEnd: UInt64
        var ended = false

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard !ended else { return nil }
            if !opened {
                opened = true
                return LiveLease.opening
            }
            while let from = nextCatchUp {
                let frames = try await catchUpPage(from: from)
                if !frames.isEmpty { return Self.chunk(frames) }
            }
            guard let messages = await lease.nextBatch() else {
                ended = true
                return nil
            }
            return Self.chunk(messages.map(\.frame).joined())
        }

        /// The frames of the watched events of one page of the log from `from`; moves the
        /// catch-up on (to nil once it reaches its end).
        private mutating func catchUpPage(from: UInt64) async throws -> String {
            let log = lease.hub.log
            let page = try await EventLoopTaskExecutor.offLoop {
                try await log.readAll(from: from, direction: .forward, limit: LiveLimits.catchUpPageEvents)
            }.prefix { $0.position <= catchUpEnd }
            guard let last = page.last, last.position < catchUpEnd else {
                nextCatchUp = nil
                return frames(of: page)
            }
            nextCatchUp = last.position + 1
            return frames(of: page)
        }

        private func frames(of page: some Sequence<RecordedEvent>) -> String {
            var frames = ""
            for event in page {
                guard let topic = lease.subscription.topic(for: event, keys: LiveTopics.keys(of: event)) else { continue }
                frames += LiveMessage.event(position: event.position, type: event.type, topic: topic).frame
            }
            return frames
        }

        private static func chunk(_ text: String) -> HTTPBody.ByteChunk {
            ArraySlice(text.utf8)
        }
    }
}

/// A stream's place in the hub, held by its response body: when the body ends or is dropped
/// (the client went away, a HEAD request), the stream leaves the hub.
final class LiveLease: Sendable {
    let hub: LiveHub
    let subscription: LiveSubscription

    init(hub: LiveHub, subscription: LiveSubscription) {
        self.hub = hub
        self.subscription = subscription
    }

    /// What every live body starts with: a comment, so the client has the response head and
    /// knows the stream is open.
    static let opening: HTTPBody.ByteChunk = ArraySlice(": live\n\n".utf8)

    /// The stream's next messages, waiting for them; nil once the stream is over (it has then
    /// left the hub). The server's graceful shutdown ends it with `shutdown`.
    func nextBatch() async -> [LiveMessage]? {
        let subscription = subscription
        let messages = await withGracefulShutdownHandler {
            await subscription.nextBatch()
        } onGracefulShutdown: {
            subscription.finish(.shutdown)
        }
        guard !messages.isEmpty else {
            end()
            return nil
        }
        return messages
    }

    /// Leaves the hub; idempotent.
    func end() {
        subscription.cancel()
        hub.remove(subscription.id)
    }

    deinit { end() }
}
