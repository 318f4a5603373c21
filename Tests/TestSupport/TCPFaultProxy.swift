import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on a free loopback port that a test puts between a client and `logbook serve`
/// to make the network fail on cue: it forwards each connection to the server's port, holds
/// new connections while there is no server (until `forward(to:)` names the next one), refuses
/// them, cuts every open one, or drops the answer to one chosen request and runs the test's
/// action (SIGKILL the server or the client) at the moment that answer began to arrive.
///
/// Blocking sockets, a thread per direction of each connection: a test opens a handful, and
/// no event loop is needed for that. No library the package keeps does this: NIO could carry
/// the bytes but has no proxy, and what matters here (when exactly an answer is dropped) is a
/// dozen lines either way.
public final class TCPFaultProxy: @unchecked Sendable {
    /// What the proxy does with a new connection.
    public enum Mode: Sendable, Equatable {
        /// Connects it to this loopback port and carries its bytes both ways.
        case forwarding(port: Int)
        /// Keeps it waiting (up to `holdMax`) until the mode changes: a restarting server.
        case holding
        /// Resets it at once: a server that cannot be reached.
        case refusing
    }

    /// The proxy's own port: the clients' server URL is `url`.
    public let port: Int
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// How long a held connection waits for a server before it is reset.
    public let holdMax: Duration

    private let listener: Int32
    private let state = NSCondition()
    // Guarded by `state`.
    private var mode: Mode
    private var links: [ObjectIdentifier: Link] = [:]
    private var closed = false
    private var armed: (marker: [UInt8], action: @Sendable () -> Void)?
    private var dropped: [UInt8]?

    /// A socket call that failed while the proxy was being set up.
    public struct SocketFailed: Error, CustomStringConvertible {
        public let call: String
        public let errno: Int32
        public var description: String { "\(call): \(String(cString: strerror(errno)))" }
    }

    /// Listens on a free loopback port and treats connections by `mode` until told otherwise.
    public init(_ mode: Mode, holdMax: Duration = .seconds(15)) throws {
        self.mode = mode
        self.holdMax = holdMax
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SocketFailed(call: "socket", errno: errno) }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 64) == 0 else {
            let code = errno
            Glibc.close(listener)
            throw SocketFailed(call: "bind", errno: code)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { close() }

    /// New connections go to `port` (held ones too); open ones stay where they are.
    public func forward(to port: Int) { setMode(.forwarding(port: port)) }
    /// New connections wait until the next `forward(to:)` (or `refuse()`).
    public func hold() { setMode(.holding) }
    /// New connections are reset, held ones too.
    public func refuse() { setMode(.refusing) }

    /// Cuts every open connection (both sides see it closed), as a network that drops.
    public func cutConnections() {
        for link in state.withLock({ Array(links.values) }) { link.cut() }
    }

    /// When the server begins to answer the next request whose bytes contain `marker` (a path,
    /// an Idempotency-Key), that answer is not passed on: the proxy keeps its first bytes,
    /// runs `action` and cuts the connection, so the client sees it close with no answer.
    public func dropAnswer(toRequestContaining marker: String, then action: @escaping @Sendable () -> Void) {
        state.withLock {
            armed = (Array(marker.utf8), action)
            dropped = nil
        }
    }

    /// The first bytes of the answer `dropAnswer` dropped, once it has.
    public func droppedAnswer(timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let bytes = state.withLock({ dropped }) { return String(decoding: bytes, as: UTF8.self) }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TimedOut(waitingFor: "an answer to drop")
    }

    /// What `droppedAnswer` waited for in vain.
    public struct TimedOut: Error { public let waitingFor: String }

    /// Stops listening and cuts every connection.
    public func close() {
        let wasClosed = state.withLock {
            defer { closed = true; state.broadcast() }
            return closed
        }
        guard !wasClosed else { return }
        // Wakes the accepting thread, which then closes the listener.
        shutdown(listener, Int32(SHUT_RDWR))
        cutConnections()
    }

    private func setMode(_ new: Mode) {
        state.withLock {
            mode = new
            state.broadcast()
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            if state.withLock({ closed }) {
                Self.reset(client)
                break
            }
            Thread.detachNewThread { [self] in connect(client) }
        }
        Glibc.close(listener)
    }

    /// Holds, refuses or forwards one accepted connection, by the mode.
    private func connect(_ client: Int32) {
        let deadline = Date() + TimeInterval(holdMax.components.seconds)
        let target: Int? = state.withLock {
            while mode == .holding, !closed, state.wait(until: deadline) {}
            guard !closed, case let .forwarding(port) = mode else { return nil }
            return port
        }
        guard let target else { return Self.reset(client) }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: target)
        let connected = server >= 0 && withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            if server >= 0 { Glibc.close(server) }
            return Self.reset(client)
        }
        let link = Link(client: client, server: server)
        let admitted = state.withLock {
            guard !closed else { return false }
            links[ObjectIdentifier(link)] = link
            return true
        }
        guard admitted else { return link.finish() }
        Thread.detachNewThread { [self] in pumpRequests(link) }
        pumpAnswers(link)
    }

    /// Client to server; notes when the armed marker went by on this link.
    private func pumpRequests(_ link: Link) {
        var carry: [UInt8] = []
        link.pump(from: link.client, to: link.server) { bytes in
            state.withLock {
                guard let marker = armed?.marker else { return }
                let seen = carry + bytes
                if Self.contains(seen, marker) { link.carriesArmedRequest = true }
                carry = Array(seen.suffix(marker.count - 1))
            }
            return true
        }
        done(link)
    }

    /// Server to client; drops the armed request's answer.
    private func pumpAnswers(_ link: Link) {
        link.pump(from: link.server, to: link.client) { bytes in
            let action: (@Sendable () -> Void)? = state.withLock {
                guard link.carriesArmedRequest, let armed else { return nil }
                self.armed = nil
                dropped = bytes
                return armed.action
            }
            guard let action else { return true }
            action()
            link.resetsClient = true
            return false
        }
        done(link)
    }

    private func done(_ link: Link) {
        link.cut()
        if link.finished() {
            state.withLock { _ = links.removeValue(forKey: ObjectIdentifier(link)) }
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<(start + needle.count)].elementsEqual(needle) }
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// Closes `descriptor` with an RST rather than a FIN (SO_LINGER 0).
    static func reset(_ descriptor: Int32) {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        Glibc.close(descriptor)
    }
}

/// One proxied connection: the client's socket and the server's, each closed once both
/// directions are done.
private final class Link: @unchecked Sendable {
    let client: Int32
    let server: Int32
    // Guarded by the proxy's lock, or written before `cut()` by the thread that drops.
    var carriesArmedRequest = false
    var resetsClient = false
    private let lock = NSLock()
    private var pumpsRunning = 2

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    /// Copies `from` to `to` until either ends or `forward` returns false for a chunk (which is
    /// then not sent).
    func pump(from source: Int32, to sink: Int32, _ forward: ([UInt8]) -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let chunk = Array(buffer[0..<count])
            guard forward(chunk) else { return }
            var offset = 0
            while offset < count {
                // MSG_NOSIGNAL: a peer gone must not SIGPIPE the test process.
                let sent = chunk.withUnsafeBytes { send(sink, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }

    /// Wakes both directions' threads; both sockets see the connection end.
    func cut() {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
    }

    /// Counts one direction done; the last one closes both sockets and returns true.
    func finished() -> Bool {
        let last = lock.withLock {
            pumpsRunning -= 1
            return pumpsRunning == 0
        }
        if last { finish() }
        return last
    }

    /// Closes both sockets (the client's with an RST when its answer was dropped).
    func finish() {
        if resetsClient { TCPFaultProxy.reset(client) } else { Glibc.close(client) }
        Glibc.close(server)
    }
}
