import Foundation
import Synchronization
import Testing

/// One `GET /v1/live` over a plain TCP socket: URLSession on Linux cannot hand a body over while
/// it streams. A thread reads whatever arrives into a buffer (unless the test holds it back, to
/// play a slow client); the test parses the buffer when it asks.
final class LiveStreamClient: Sendable {
    /// One `id:`/`event:`/`data:` frame of the stream.
    struct Event: Equatable {
        let id: UInt64
        let type: String
        let topic: String
        let position: UInt64
    }

    /// What has arrived so far, parsed.
    struct Snapshot {
        /// The response's status, once its head arrived.
        var status: Int?
        /// The response's body so far (de-chunked).
        var body: String = ""
        /// The complete events.
        var events: [Event] = []
        /// The comment lines (`keep-alive`, `closed: too_slow`).
        var comments: [String] = []
        /// Whether the response ended (the last chunk) or the connection closed.
        var ended = false
    }

    private let socket: Int32
    private let received = Mutex<(bytes: [UInt8], closed: Bool)>(([], false))
    private let reading = Mutex(false)
    private let isClosed = Mutex(false)

    /// Connects to `address` (`http://127.0.0.1:port`), sends the request for `path` (the users'
    /// `/v1/live`, or the operators' tail) and `query` (the part after `?`) with `token` and
    /// `lastEventID`, and starts reading unless `reading` is false.
    /// `receiveBufferBytes` shrinks the socket's receive buffer, so that a client that does not
    /// read fills the server's side soon.
    init(
        address: String, path: String = "/v1/live", query: String, token: String?, lastEventID: String? = nil, reading: Bool = true,
        receiveBufferBytes: Int32? = nil
    ) throws {
        let url = try #require(URL(string: address))
        let port = try #require(url.port)
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        if var bytes = receiveBufferBytes {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        target.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            _ = Foundation.close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
        var request = "GET \(path)?\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        if reading { startReading() }
    }

    deinit { disconnect() }

    /// Starts (or resumes) reading what the server sends.
    func startReading() {
        guard reading.withLock({ reading in defer { reading = true }; return !reading }) else { return }
        let socket = socket
        // Holds the client until the connection ends (the server closes it at the latest).
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    self.received.withLock { $0.closed = true }
                    return
                }
                self.received.withLock { $0.bytes += buffer[0..<count] }
            }
        }
    }

    /// Closes the connection (the client goes away); once.
    func disconnect() {
        guard isClosed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        _ = Foundation.close(socket)
    }

    /// What has arrived so far.
    var snapshot: Snapshot {
        let (bytes, closed) = received.withLock { ($0.bytes, $0.closed) }
        return Self.parse(bytes, closed: closed)
    }

    /// Waits (up to `timeout`) until `condition` holds of the stream; returns the snapshot that
    /// satisfied it, or fails the test with the last one.
    @discardableResult
    func wait(
        timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation, until condition: (Snapshot) -> Bool
    ) async throws -> Snapshot {
        let deadline = ContinuousClock.now + timeout
        while true {
            let current = snapshot
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

    static func parse(_ bytes: [UInt8], closed: Bool) -> Snapshot {
        var snapshot = Snapshot(ended: closed)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headEnd = bytes.firstRange(of: separator) else { return snapshot }
        let head = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self)
        snapshot.status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        var rest = bytes[headEnd.upperBound...]
        var body: [UInt8] = []
        if head.lowercased().contains("transfer-encoding: chunked") {
            // Chunks: `<hex size>\r\n<bytes>\r\n`, the last of size 0.
            while let lineEnd = rest.firstRange(of: Array("\r\n".utf8)),
                  let size = Int(String(decoding: rest[rest.startIndex..<lineEnd.lowerBound], as: UTF8.self), radix: 16) {
                if size == 0 {
                    snapshot.ended = true
                    break
                }
                let start = lineEnd.upperBound
                guard rest.distance(from: start, to: rest.endIndex) >= size + 2 else { break }
                let end = rest.index(start, offsetBy: size)
                body += rest[start..<end]
                rest = rest[rest.index(end, offsetBy: 2)...]
            }
        } else {
            body = Array(rest)
            if head.lowercased().contains("content-length") { snapshot.ended = true }
        }
        snapshot.body = String(decoding: body, as: UTF8.self)
        // Only complete frames: each ends with a blank line.
        var frames = snapshot.body.components(separatedBy: "\n\n")
        frames.removeLast()
        for frame in frames {
            var fields: [String: String] = [:]
            for line in frame.split(separator: "\n") {
                if line.hasPrefix(":") {
                    snapshot.comments.append(line.dropFirst().trimmingCharacters(in: .whitespaces))
                } else if let colon = line.firstIndex(of: ":") {
                    fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            guard let id = fields["id"].flatMap({ UInt64($0) }), let type = fields["event"], let data = fields["data"],
                  let json = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] else { continue }
            snapshot.events.append(Event(
                id: id, type: type, topic: json["topic"] as? String ?? "",
                position: (json["position"] as? NSNumber)?.uint64Value ?? 0))
            // The data's type must be the event's: a mismatch shows up as an empty type.
            if json["type"] as? String != type { snapshot.events[snapshot.events.count - 1] = Event(id: id, type: "", topic: "", position: 0) }
        }
        return snapshot
    }
}
