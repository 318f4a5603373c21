import Foundation
import LogbookClient
import Synchronization
import TestSupport

/// A real `logbook serve` on a data directory of its own, reached through a `TCPFaultProxy`,
/// which a test may kill and start again on the same directory (the proxy then forwards to the
/// new port). With an operator token, so a test reads what the log holds (`events`), and with
/// the server's log collected, every run's (`requestCount`).
final class ProxiedServer: Sendable {
    static let operatorToken = "client-tests-operator-token"
    /// Fast retries: a test's outage lasts a second or two, not the standard policy's patience.
    static let quickRetry = RetryPolicy(attempts: 4, delayInitial: .milliseconds(50), delayMax: .milliseconds(400))

    let directory: String
    /// Where clients keep their outboxes and watched values, one subdirectory each.
    let storage = NSTemporaryDirectory() + "client-tests-" + UUID().uuidString
    let proxy: TCPFaultProxy
    /// Every server started on `directory`, the running one last.
    private let runs: Mutex<[ServerProcess]>

    init(proxyMode: TCPFaultProxy.Mode? = nil) async throws {
        let directory = NSTemporaryDirectory() + "client-server-" + UUID().uuidString
        let first = try await Self.start(on: directory)
        self.directory = directory
        runs = Mutex([first])
        proxy = try TCPFaultProxy(proxyMode ?? .forwarding(port: first.port))
    }

    deinit {
        proxy.close()
        for server in runs.withLock({ $0 }) { server.kill() }
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.removeItem(atPath: storage)
    }

    private static func start(on directory: String) async throws -> ServerProcess {
        try await ServerProcess(
            dataDirectory: directory,
            environment: ["LOGBOOK_OPERATOR_TOKEN": operatorToken, "LOGBOOK_SECRET_KEY": "", "LOGBOOK_EVENT_STORE": ""],
            capturingStandardError: true)
    }

    /// The running server.
    var server: ServerProcess { runs.withLock { $0.last! } }
    /// The running server's own URL, past the proxy.
    var directURL: URL { server.url }

    /// SIGKILLs the running server and waits for its end.
    func kill() async {
        let server = server
        server.kill()
        await server.process.exited()
    }

    /// Starts `logbook serve` again on the same directory; the proxy forwards to it unless not
    /// `forwarding` (then `proxy.forward(to: server.port)` does).
    func restart(forwarding: Bool = true) async throws {
        let next = try await Self.start(on: directory)
        runs.withLock { $0.append(next) }
        if forwarding { proxy.forward(to: next.port) }
    }

    /// A client of the proxy's URL (`direct`: of the running server's), with credentials in
    /// memory and, `named`, a storage directory of its own.
    func client(
        named name: String? = nil, direct: Bool = false, retry: RetryPolicy = ProxiedServer.quickRetry, credentials: Credentials? = nil
    ) throws -> LogbookClient {
        try LogbookClient(.init(
            serverURL: direct ? directURL : proxy.url, credentials: MemoryCredentialStore(credentials), retry: retry,
            storageDirectory: name.map(storageURL)))
    }

    func storageURL(_ name: String) -> URL { URL(fileURLWithPath: storage).appendingPathComponent(name) }

    /// Every event of the log from `position` on, as the operators' API gives them, from the
    /// running server directly.
    func events(from position: Int64 = 1) async throws -> [Components.Schemas.AdminEvent] {
        let operatorClient = try client(direct: true, credentials: Credentials(userId: "operator", token: Self.operatorToken, expiresAt: .distantFuture))
        var events: [Components.Schemas.AdminEvent] = []
        var cursor: String?
        repeat {
            let page = try await operatorClient.run {
                try await $0.listAdminEvents(query: .init(fromPosition: position, limit: 500, cursor: cursor)).ok.body.json
            }
            events += page.items
            cursor = page.next
        } while cursor != nil
        return events
    }

    /// Every server log line of a request to `route` (its template) answered with `status`,
    /// across every run.
    func requestCount(method: String, route: String, status: Int) -> Int {
        let log = runs.withLock { $0.map(\.lines.output).joined(separator: "\n") }
        return log.split(separator: "\n").count { line in
            line.contains("method=\(method) ") && line.contains("route=\(route) ") && line.contains("status=\(status)")
        }
    }
}

extension ServerProcess {
    var url: URL { URL(string: address)! }
    var port: Int { url.port! }
}
