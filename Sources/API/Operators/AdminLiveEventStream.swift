import EventLog
import Foundation
import LogInspection
import PostgresEventLog
import OpenAPIRuntime

/// The body of the operators' live tail: first the matching events after `Last-Event-ID`, read
/// from the log a bounded page at a time at the client's pace, then what the hub offers the
/// stream. Each event goes out as `id: <position>`, `event: <type>` and `data:` the event as
/// `GET /v1/admin/events` shows an item (`AdminReads.event`: data as stored, personal fields
/// sealed). The hub's messages name only the position, so the event is read from the log here,
/// on the stream's own task, never under the hub's lock.
struct AdminLiveEventStream: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let lease: LiveLease
    /// What the stream shows.
    let filter: EventFilter
    /// Positions to read from the log before the live messages (the hub sends only what follows).
    let catchUp: ClosedRange<UInt64>?

    func makeAsyncIterator() -> Iterator {
        var scanned = filter
        if let catchUp { scanned.positions = catchUp }
        return Iterator(lease: lease, catchUp: catchUp.map { _ in EventScanner(store: lease.hub.log, filter: scanned) })
    }

    struct Iterator: AsyncIteratorProtocol {
        let lease: LiveLease
        /// The scan of the catch-up range, nil once it is done.
        var catchUp: EventScanner<EventLogBackend>?
        /// Where the catch-up reads on (a scan's resume key), nil at its start.
        var resumeKey: UInt64?
        var opened = false
        var ended = false

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard !ended else { return nil }
            if !opened {
                opened = true
                return LiveLease.opening
            }
            while let scanner = catchUp {
                try Task.checkCancellation()
                // Bounded like an admin page: a filter matching little in a long range still
                // hands the thread back between pages.
                let from = resumeKey
                let page = try await EventLoopTaskExecutor.offLoop {
                    try await scanner.page(
                        from: from, direction: .forward, limit: LiveLimits.catchUpPageEvents, scannedMax: AdminReads.scannedEventsMax)
                }
                resumeKey = page.resumeKey
                if page.resumeKey == nil { catchUp = nil }
                if !page.events.isEmpty { return Self.chunk(page.events.map(Self.frame).joined()) }
                await Task.yield()
            }
            guard let messages = await lease.nextBatch() else {
                ended = true
                return nil
            }
            let log = lease.hub.log
            let frames = try await EventLoopTaskExecutor.offLoop {
                var frames = ""
                for message in messages {
                    if case let .event(position, _, _) = message {
                        // Offered by the hub, so it is in the log; its reads fail only when the storage does.
                        guard let event = try await log.event(at: position) else { continue }
                        frames += Self.frame(event)
                    } else {
                        frames += message.frame
                    }
                }
                return frames
            }
            return Self.chunk(frames)
        }

        /// The SSE frame of `event`: its id and type, and its admin item as one line of JSON
        /// (JSON escapes every line break inside strings, so the `data:` line is never split).
        static func frame(_ event: RecordedEvent) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = (try? encoder.encode(AdminReads.event(event))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            // A type is any name without NUL to the log; a line break in it would end the field early.
            let type = event.type.filter { $0 != "\n" && $0 != "\r" }
            return "id: \(event.position)\nevent: \(type)\ndata: \(json)\n\n"
        }

        private static func chunk(_ text: String) -> HTTPBody.ByteChunk {
            ArraySlice(text.utf8)
        }
    }
}
