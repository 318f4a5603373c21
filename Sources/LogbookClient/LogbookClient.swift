import AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// The apps' client of a Logbook server (SPEC §3b, docs/client.md).
///
/// `api` is every operation of openapi.yaml, generated, so it cannot drift from the server; the
/// client sends each with the session's token, gives every command one Idempotency-Key for all
/// its retries, retries what failed transiently, and throws every refusal as a `LogbookProblem`.
/// Around it: the session, the outbox, live notifications and watched queries.
public final class LogbookClient: Sendable {
    public struct Configuration: Sendable {
        public var serverURL: URL
        public var credentials: any CredentialStore
        public var retry: RetryPolicy
        /// Where the outbox and the watched queries' last values are kept; nil: no outbox, and
        /// watched values are not kept across launches.
        public var storageDirectory: URL?
        /// How requests travel; nil: AsyncHTTPClient's shared client.
        public var transport: (any ClientTransport)?
        /// A live stream with no byte for this long (the server sends a keep-alive every 15 s)
        /// is taken as broken and opened again.
        public var liveSilenceMax: Duration

        public init(
            serverURL: URL, credentials: any CredentialStore = MemoryCredentialStore(), retry: RetryPolicy = .standard,
            storageDirectory: URL? = nil, transport: (any ClientTransport)? = nil, liveSilenceMax: Duration = .seconds(45)
        ) {
            self.serverURL = serverURL
            self.credentials = credentials
            self.retry = retry
            self.storageDirectory = storageDirectory
            self.transport = transport
            self.liveSilenceMax = liveSilenceMax
        }
    }

    public let configuration: Configuration
    let session: Session
    let transport: any ClientTransport
    /// Live streams last: no deadline but the silence watchdog's.
    let streamingTransport: any ClientTransport
    /// Present when the configuration gives a storage directory.
    public let outbox: Outbox?
    private let sessionWatcher: Task<Void, Never>?

    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        session = Session(store: configuration.credentials)
        transport = configuration.transport ?? AsyncHTTPClientTransport(configuration: .init(client: .shared, timeout: .seconds(60)))
        streamingTransport = configuration.transport ?? AsyncHTTPClientTransport(configuration: .init(client: .shared, timeout: .hours(24 * 365)))
        if let directory = configuration.storageDirectory {
            let outbox = try Outbox(directory: directory.appendingPathComponent("outbox"), session: session, retry: configuration.retry)
            self.outbox = outbox
            // A sign-in may be what a held command waits for; a sign-out leaves no watched value.
            let states = session.states.stream()
            let cache = WatchCache(directory: directory.appendingPathComponent("watched"))
            sessionWatcher = Task { [weak outbox] in
                for await state in states {
                    if case .signedOut(.some) = state { cache.clear() }
                    await outbox?.wake()
                }
            }
        } else {
            outbox = nil
            sessionWatcher = nil
        }
        if let outbox {
            let send = sender()
            Task { await outbox.start(sending: send) }
        }
    }

    /// A client of `serverURL` with credentials in memory and no storage.
    public convenience init(serverURL: URL) throws {
        try self.init(Configuration(serverURL: serverURL))
    }

    deinit {
        sessionWatcher?.cancel()
        if let outbox { Task { await outbox.stop() } }
    }

    /// Every operation of the contract. A refusal throws `ClientError` whose `underlyingError` is
    /// the `LogbookProblem`; `run` throws the problem itself.
    public var api: Client { client() }

    /// Runs `operation` on `api` and throws a refusal as the `LogbookProblem` itself (and a
    /// network failure, after the retries, as the transport's error). It runs on the caller's
    /// actor (`nonisolated(nonsending)`), so a closure of the main actor's is not sent away.
    public nonisolated(nonsending) func run<Value>(_ operation: (Client) async throws -> Value) async throws -> Value {
        do {
            return try await operation(api)
        } catch let error as ClientError {
            throw error.underlyingError
        }
    }

    /// The generated client with the standard middleware around `extra`: problems, keys,
    /// `extra` (outbox, conditional GETs), the token, retries.
    func client(_ extra: [any ClientMiddleware] = [], outer: [any ClientMiddleware] = [], transport: (any ClientTransport)? = nil) -> Client {
        Client(
            serverURL: configuration.serverURL,
            configuration: .init(),
            transport: transport ?? self.transport,
            middlewares: outer + [ProblemMiddleware(session: session), IdempotencyKeyMiddleware(), EntityTagHeaderMiddleware()] + extra
                + [AuthMiddleware(session: session), RetryMiddleware(policy: configuration.retry)])
    }

    /// Sends a queued command with the token and the retries, and reads the whole answer.
    private func sender() -> Outbox.Sender {
        let transport = transport
        let session = session
        let serverURL = configuration.serverURL
        let middlewares: [any ClientMiddleware] = [AuthMiddleware(session: session), RetryMiddleware(policy: configuration.retry)]
        return { command in
            var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { request, body, url in
                try await transport.send(request, body: body, baseURL: url, operationID: command.operationID)
            }
            for middleware in middlewares.reversed() {
                let inner = next
                next = { request, body, url in
                    try await middleware.intercept(request, body: body, baseURL: url, operationID: command.operationID, next: inner)
                }
            }
            // Taken before sending, as ProblemMiddleware does: a sign-in meanwhile is not refused.
            let sent = AuthMiddleware.token(of: command.request, operationID: command.operationID, session: session)
            let (response, body) = try await next(command.request, command.body.map { HTTPBody($0) }, serverURL)
            let bytes = try await bodyBytes(body) ?? Data()
            if response.status.code == 401 {
                session.answered(LogbookProblem.of(status: 401, headers: response.headerFields, body: bytes), forToken: sent)
            }
            return (response, bytes)
        }
    }
}
