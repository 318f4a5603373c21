import Foundation
import HTTPTypes
import OpenAPIRuntime

extension LogbookClient {
    /// The change notifications of `topics` (such as `house:<id>`, `me`) from now on, or after
    /// `position`. The stream reconnects by itself, with backoff, and resumes with
    /// Last-Event-ID from the last notification it gave, so none is missed or given twice across
    /// reconnects and server restarts. It throws the problem when the server refuses the topics
    /// (403 not_a_member, 401: signed out…), and ends when the task reading it is cancelled.
    public func live(topics: [String], after position: UInt64? = nil) -> AsyncThrowingStream<LiveNotification, any Error> {
        let events = liveEvents(topics: topics, after: position)
        return AsyncThrowingStream { continuation in
            let reader = Task {
                do {
                    for try await event in events {
                        if case let .notification(notification) = event { continuation.yield(notification) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    /// The stream with its connections and breaks, for watched queries.
    func liveEvents(topics: [String], after position: UInt64?) -> AsyncThrowingStream<LiveEvent, any Error> {
        let api = client(transport: streamingTransport)
        let retry = configuration.retry
        let silenceMax = configuration.liveSilenceMax
        let topicList = topics.joined(separator: ",")
        return AsyncThrowingStream { continuation in
            let task = Task {
                var last = position
                var failures = 0
                while !Task.isCancelled {
                    do {
                        let output = try await api.getLive(query: .init(topics: topicList), headers: .init(lastEventID: last.map(String.init)))
                        let body = try output.ok.body.textEventStream
                        failures = 0
                        continuation.yield(.connected)
                        try await LiveReader(silenceMax: silenceMax).read(body) { notification in
                            // A resumed stream starts after Last-Event-ID; a repeat is skipped all the same.
                            if let seen = last, notification.position <= seen { return }
                            last = notification.position
                            continuation.yield(.notification(notification))
                        }
                        // The server closed it (too_slow, shutdown, revoked…): open it again; a
                        // refusal then says why it may not be.
                        continuation.yield(.disconnected(LiveStreamClosed()))
                    } catch {
                        let cause = (error as? ClientError)?.underlyingError ?? error
                        if Task.isCancelled || cause is CancellationError { break }
                        if let problem = cause as? LogbookProblem, !RetryPolicy.isTransient(status: problem.status) {
                            continuation.finish(throwing: problem)
                            return
                        }
                        failures += 1
                        continuation.yield(.disconnected(cause))
                        try? await Task.sleep(for: retry.delay(after: failures) + retry.delayInitial)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The server ended a live stream (its `: closed:` comment says why).
struct LiveStreamClosed: Error {}

/// A live stream went silent for longer than the server's keep-alives allow.
struct LiveStreamSilent: Error {}

/// Reads one live stream's events with the runtime's SSE parser, and gives up on it when no
/// byte (a keep-alive included) came for `silenceMax`: a half-open connection otherwise waits
/// for ever.
struct LiveReader {
    let silenceMax: Duration

    func read(_ body: HTTPBody, _ deliver: (LiveNotification) -> Void) async throws {
        let heard = Locked(ContinuousClock.now)
        let bytes = body.map { chunk -> ArraySlice<UInt8> in
            heard.withLock { $0 = .now }
            return chunk
        }
        let (notifications, sink) = AsyncThrowingStream<LiveNotification, any Error>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await event in bytes.asDecodedServerSentEvents() {
                        guard let id = event.id, let position = UInt64(id), let data = event.data else { continue }
                        guard var notification = try? JSONDecoder().decode(LiveNotification.self, from: Data(data.utf8)) else { continue }
                        notification.position = position
                        sink.yield(notification)
                    }
                    sink.finish()
                } catch {
                    sink.finish(throwing: error)
                }
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: silenceMax / 4)
                    if heard.withLock({ ContinuousClock.now - $0 }) > silenceMax {
                        sink.finish(throwing: LiveStreamSilent())
                        return
                    }
                }
            }
            defer { group.cancelAll() }
            for try await notification in notifications { deliver(notification) }
        }
    }
}
