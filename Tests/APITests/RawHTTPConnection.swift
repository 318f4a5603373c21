import Foundation
import Glibc

/// One HTTP/1.1 connection written byte for byte over a plain socket, for what no client library
/// sends: a malformed chunk size, a body shorter than its Content-Length, a chunked body without
/// its last chunk, a client that half-closes or resets the connection mid-body.
///
/// Its calls block: use it inside `RawHTTPConnection.offThePool`, so that a test waiting for an
/// answer does not hold one of the few threads the server's own tasks need to give it.
final class RawHTTPConnection {
    /// Runs `body` on a thread of its own and waits for it without blocking a thread of the pool.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// What the server sent, parsed.
    struct Received {
        /// All the bytes, until the server closed (or the read timed out).
        let bytes: Data
        /// The first response's status code; nil when the server sent none.
        let status: Int?
        /// The first response's header fields, names lowercased.
        let headers: [String: String]
        /// The first response's body, by its Content-Length.
        let body: Data
        /// How many status lines arrived: one request, one answer.
        let responses: Int

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    private let descriptor: Int32

    /// Connects to `127.0.0.1:port`; reads give up after `timeoutSeconds`.
    init(port: Int, timeoutSeconds: Int = 30) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Writes all of `data`; false once the server closed its end.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Writes `text` as UTF-8.
    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Ends the client's side (a FIN), as a client that has sent all it ever will: the server
    /// reads the end of the body there, and may still answer.
    func halfClose() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Drops the connection with a reset (SO_LINGER 0), as a client that goes away: no one is
    /// left to answer.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Reads the first response: its head and a body of its Content-Length, or until the server
    /// closes when `untilClosed` (to see anything it sends after it).
    func receive(untilClosed: Bool = false) -> Received {
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
            if !untilClosed, let length = Self.completeLength(bytes), bytes.count >= length { break }
        }
        return Self.parse(bytes)
    }

    /// The bytes of the first response when its head has arrived: head plus Content-Length.
    private static func completeLength(_ bytes: Data) -> Int? {
        guard let end = bytes.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        return end.upperBound - bytes.startIndex + (fields(head)["content-length"].flatMap { Int($0) } ?? 0)
    }

    private static func fields(_ head: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    private static func parse(_ bytes: Data) -> Received {
        let text = String(decoding: bytes, as: UTF8.self)
        let responses = text.components(separatedBy: "HTTP/1.1 ").count - 1
        guard let end = bytes.firstRange(of: Data("\r\n\r\n".utf8)) else {
            return Received(bytes: bytes, status: nil, headers: [:], body: Data(), responses: responses)
        }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        let statusLine = head.components(separatedBy: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        let headers = fields(head)
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        let body = bytes[end.upperBound...].prefix(length)
        return Received(bytes: bytes, status: parts.count >= 2 ? Int(parts[1]) : nil, headers: headers, body: Data(body), responses: responses)
    }
}
