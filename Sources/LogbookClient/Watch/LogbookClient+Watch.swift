import Foundation
import HTTPTypes
import OpenAPIRuntime

extension LogbookClient {
    /// A read-model GET kept current: yields its value, then fetches it again with
    /// `If-None-Match` on each connection and each notification of `topics` (a 304 costs no
    /// decode and yields nothing), and yields each new value. While the server cannot be
    /// reached the last value (kept on disk when the client has a storage directory) is yielded
    /// marked stale, and fresh again once fetched.
    ///
    ///     for try await board in logbook.watch(topics: ["house:\(id)"], { try await $0.getScoreboard(path: .init(houseId: id)).ok.body.json }) { … }
    ///
    /// It throws the problem when the query or the topics are refused (a 404, a 403, signed out).
    public func watch<Value: Codable & Sendable>(
        topics: [String], _ query: @escaping @Sendable (Client) async throws -> Value
    ) -> AsyncThrowingStream<Watched<Value>, any Error> {
        let cache = configuration.storageDirectory.map { WatchCache(directory: $0.appendingPathComponent("watched")) }
        let tags = Locked<(held: String?, received: String?)>((nil, nil))
        let api = client(outer: [ConditionalGetMiddleware(tags: tags)])
        let capture = Client(serverURL: configuration.serverURL, transport: RequestCapture())
        let events = liveEvents(topics: topics, after: nil)
        let session = session
        return AsyncThrowingStream { continuation in
            let task = Task {
                let request = await Self.requestKey(of: query, on: capture)
                let userId = session.current?.userId
                var current: Value?
                var stale = true
                if let entry = cache?.load(request: request, userId: userId), let value = try? WireDecoder.decode(Value.self, from: entry.value) {
                    current = value
                    tags.withLock { $0.held = entry.eTag }
                    continuation.yield(Watched(value: value, isStale: true))
                }
                do {
                    for try await event in events {
                        if case .disconnected = event {
                            if let current, !stale { continuation.yield(Watched(value: current, isStale: true)) }
                            stale = true
                            continue
                        }
                        do {
                            let value = try await query(api)
                            let tag = tags.withLock { tags in
                                tags.held = tags.received
                                return tags.received
                            }
                            current = value
                            stale = false
                            continuation.yield(Watched(value: value, isStale: false))
                            if let data = try? JSONCoding.encoder.encode(value) {
                                cache?.save(.init(request: request, userId: userId, eTag: tag, value: data))
                            }
                        } catch let error as ClientError where error.underlyingError is ConditionalGetMiddleware.NotModified {
                            if stale, let current { continuation.yield(Watched(value: current, isStale: false)) }
                            stale = false
                        } catch let error as ClientError where error.underlyingError is LogbookProblem {
                            // Unavailable still after the retries (a 503 while a read model
                            // rebuilds, a proxy's 502 or 504, a 429): stale, and fetched again at
                            // the next notification or connection. Any other refusal ends the watch.
                            guard let problem = error.underlyingError as? LogbookProblem, RetryPolicy.isTransient(status: problem.status) else {
                                throw error.underlyingError
                            }
                            if let current, !stale { continuation.yield(Watched(value: current, isStale: true)) }
                            stale = true
                        } catch is CancellationError {
                            break
                        } catch {
                            // Unreachable after the retries: the stream's own break follows.
                            if let current, !stale { continuation.yield(Watched(value: current, isStale: true)) }
                            stale = true
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Which request `query` makes (method, path and query string), found without sending it.
    static func requestKey<Value>(of query: (Client) async throws -> Value, on capture: Client) async -> String {
        do {
            _ = try await query(capture)
        } catch let error as ClientError {
            if let captured = error.underlyingError as? RequestCapture.Captured {
                return "\(captured.request.method.rawValue) \(captured.request.path ?? "")"
            }
        } catch {}
        return "?"
    }
}
