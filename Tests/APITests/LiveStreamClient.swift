import AsyncHTTPClient
import Foundation
import NIOCore
import OpenAPIRuntime
import Synchronization
import Testing

/// One `GET /v1/live` (or the operators' tail) read as it streams, by AsyncHTTPClient (URLSession
/// on Linux hands a body over only once it has ended), its frames decoded by OpenAPIRuntime as
/// LogbookClient decodes them; the test looks at what has arrived when it asks.
final class LiveStreamClient: Sendable {
    /// One `id:`/`event:`/`data:` frame of the stream, as the users' stream's data names it.
    struct Event: Equatable {
        let id: UInt64
        let type: String
        let topic: String
        let position: UInt64
    }

    /// One frame with its data as JSON (the operators' tail's data is the whole event).
    struct Frame {
        let id: UInt64
        let type: String
        let data: [String: Any]
    }

    /// What has arrived so far, parsed.
    struct Snapshot {
        /// The response's status, once its head arrived.
        var status: Int?
        /// The response's body so far.
        var body: String = ""
        /// The complete frames with an id, an event type and JSON data.
        var frames: [Frame] = []
        /// The same as events.
        var events: [Event] = []
        /// The comment lines (`keep-alive`, `closed: too_slow`).
        var comments: [String] = []
        /// Whether the response ended or the connection closed.
        var ended = false
    }

    /// A connection each for as long as its stream lasts: no pool limit to queue a stream
    /// behind others to the same server, and no read timeout.
    private static let http = AsyncHTTPClient.HTTPClient(
        eventLoopGroup: AsyncHTTPClient.HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            timeout: .init(connect: .seconds(10)), connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1_000)))

    private let received = Mutex<(status: Int?, bytes: [UInt8], ended: Bool)>((nil, [], false))
    private let reading = Mutex<Task<Void, Never>?>(nil)

    /// Sends the request for `path` on `address` (`http://127.0.0.1:port`), the users'
    /// `/v1/live` or the operators' tail, with `query` (the part after `?`), `token` and
    /// `lastEventID`, and reads what comes until the response ends or `disconnect()`.
    init(address: String, path: String = "/v1/live", query: String, token: String?, lastEventID: String? = nil) throws {
        var request = HTTPClientRequest(url: "\(address)\(path)?\(query)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let sent = request
        reading.withLock {
            $0 = Task { [self] in
                do {
                    let response = try await Self.http.execute(sent, timeout: .hours(1))
                    received.withLock { $0.status = Int(response.status.code) }
                    for try await chunk in response.body { received.withLock { $0.bytes += chunk.readableBytesView } }
                } catch {}
                received.withLock { $0.ended = true }
            }
        }
    }

    deinit { disconnect() }

    /// Closes the connection (the client goes away).
    func disconnect() {
        reading.withLock { $0?.cancel() }
    }

    /// What has arrived so far.
    var snapshot: Snapshot {
        get async {
            let (status, bytes, ended) = received.withLock { ($0.status, $0.bytes, $0.ended) }
            return await Self.parse(String(decoding: bytes, as: UTF8.self), status: status, ended: ended)
        }
    }

    /// Waits (up to `timeout`) until `condition` holds of the stream; returns the snapshot that
    /// satisfied it, or fails the test with the last one.
    @discardableResult
    func wait(
        timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation, until condition: (Snapshot) -> Bool
    ) async throws -> Snapshot {
        let deadline = ContinuousClock.now + timeout
        while true {
            let current = await snapshot
            if condition(current) { return current }
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out; the stream so far: status \(current.status ?? 0), body \(current.body.prefix(2_000))", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until the response head has arrived and is 200 with the opening comment.
    func waitUntilOpen() async throws {
        let opened = try await wait { $0.status != nil && ($0.status != 200 || $0.comments.contains("live")) }
        try #require(opened.status == 200, "the stream opened: \(opened.body)")
    }

    private static func parse(_ body: String, status: Int?, ended: Bool) async -> Snapshot {
        var snapshot = Snapshot(status: status, body: body, ended: ended)
        // Only complete frames: each ends with a blank line.
        guard let end = body.range(of: "\n\n", options: .backwards) else { return snapshot }
        let complete = String(body[..<end.upperBound])
        // Comments read here: OpenAPIRuntime's decoder skips them, as the SSE spec has it, and the
        // server's opening and closing words (`: live`, `: closed: shutdown`) are comments.
        snapshot.comments = complete.split(separator: "\n").filter { $0.hasPrefix(":") }.map { $0.dropFirst().trimmingCharacters(in: .whitespaces) }
        do {
            for try await frame in HTTPBody(complete).asDecodedServerSentEvents() {
                guard let id = frame.id.flatMap({ UInt64($0) }), let type = frame.event, let data = frame.data,
                      let json = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] else { continue }
                snapshot.frames.append(Frame(id: id, type: type, data: json))
                // The data's type must be the event's: a mismatch shows up as an empty type.
                snapshot.events.append(json["type"] as? String != type ? Event(id: id, type: "", topic: "", position: 0) : Event(
                    id: id, type: type, topic: json["topic"] as? String ?? "", position: (json["position"] as? NSNumber)?.uint64Value ?? 0))
            }
        } catch {
            Issue.record("the complete frames decode: \(error)")
        }
        return snapshot
    }
}
