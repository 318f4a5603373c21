import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Projections
import Testing
@testable import API

/// A service clock tests move by hand.
final class TestClock: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

extension TestServer {
    /// A server whose clock is `clock`.
    init(clock: TestClock) throws {
        try self.init { $0.clock = { clock.now } }
    }
}

/// A request's answer: status, headers, and the body as bytes, text and a JSON object.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var code: String? { json["code"] as? String }
    var isProblem: Bool { headers[.contentType] == "application/problem+json" }
    /// The `errors[].field` of a validation problem.
    var fieldsInError: [String] { (json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } }
}

extension TestClientProtocol {
    /// Sends `json` (a JSON-serialisable value) or `raw` bytes, with the token and key given.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: Any? = nil, raw: String? = nil,
        token: String? = nil, key: String? = nil, contentType: String? = "application/json"
    ) async throws -> Reply {
        var headers: HTTPFields = [:]
        var body: ByteBuffer?
        if let json { body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)) }
        if let raw { body = ByteBuffer(string: raw) }
        if body != nil, let contentType { headers[.contentType] = contentType }
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        let response = try await execute(uri: uri, method: method, headers: headers, body: body)
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }

    /// Registers an account and returns its id and token; expects 201.
    func register(
        _ email: String, password: String = "correct horse", displayName: String = "Ann", username: String? = nil,
        extra: [String: Any] = [:], key: String? = nil
    ) async throws -> (userId: String, token: String) {
        var body: [String: Any] = ["email": email, "password": password, "displayName": displayName]
        if let username { body["username"] = username }
        body.merge(extra) { $1 }
        let reply = try await send(.post, "/v1/accounts", json: body, key: key)
        try #require(reply.status == .created, "register: \(reply.text)")
        return (try #require(reply.json["userId"] as? String), try #require(reply.json["token"] as? String))
    }

    /// Logs in; the reply as it is.
    func login(_ email: String, _ password: String, key: String? = nil) async throws -> Reply {
        try await send(.post, "/v1/sessions", json: ["email": email, "password": password], key: key)
    }

    /// `GET /v1/me` with `token`.
    func me(_ token: String) async throws -> Reply {
        try await send(.get, "/v1/me", token: token)
    }
}

/// Collects every log line of a logger, to check that no secret is ever logged.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing here at the most verbose level.
    func logger() -> Logger {
        var logger = Logger(label: "api-tests") { _ in CapturingHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }

    struct CapturingHandler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append("\(event.level) \(event.message) \(merged)")
        }
    }
}

/// The service's pauses (slowed-down logins), recorded instead of waited; while `holding`, a
/// pause waits until `release()`, so a test can see a request held in its pause.
final class RecordedPauses: Sendable {
    private struct State {
        var durations: [Duration] = []
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// The pauses so far, oldest first.
    var durations: [Duration] { state.withLock { $0.durations } }
    /// Pauses waiting for `release()`.
    var heldCount: Int { state.withLock { $0.held.count } }

    /// What the configuration's `pause` does.
    func pause(_ duration: Duration) async {
        await withCheckedContinuation { continuation in
            let hold = state.withLock { state in
                state.durations.append(duration)
                if state.holding { state.held.append(continuation) }
                return state.holding
            }
            if !hold { continuation.resume() }
        }
    }

    /// From now on, pauses wait for `release()`.
    func hold() { state.withLock { $0.holding = true } }

    /// Ends the held pauses and holds no more.
    func release() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}

extension TestServer {
    /// A server whose clock is `clock` and whose pauses `pauses` records.
    init(clock: TestClock = TestClock(), pauses: RecordedPauses) throws {
        try self.init {
            $0.clock = { clock.now }
            $0.pause = { await pauses.pause($0) }
        }
    }

    /// Waits (at most `timeout`) until every reset request is carried out and in the read models.
    func awaitPasswordResets(timeout: Duration = .seconds(10)) async throws {
        try await waitUntil(timeout: timeout) { runtime.auth.passwordResets.isIdle }
        try await runtime.projections.waitUntilProjected(try runtime.log.lmdb.headPosition(), timeout: timeout)
    }

    /// The tokens of `kind` (reset links by default) in the outbox for `email` once the reset
    /// requests are carried out, newest first, unsealed as the operator's mailer would.
    func outboxTokens(to email: String, kind: OutboxMail.Kind = .passwordReset) async throws -> [String] {
        try await awaitPasswordResets()
        return try runtime.accounts.outboxMails(limit: 100, now: runtime.configuration.clock())
            .filter { $0.to == email && $0.kind == kind }
            .map { try #require(runtime.auth.secrets.unseal($0.sealedToken)) }
    }

    /// Verifies `email`, the e-mail of the account signed in with `token`, with the newest
    /// verification token the outbox holds for it, as its owner clicking the link would; expects 204.
    func verifyEmail(_ email: String, token: String, with client: some TestClientProtocol) async throws {
        try await runtime.verifyEmail(email, token: token, with: client)
    }

    /// Registers an account (as `TestClientProtocol.register`) and verifies its e-mail.
    func registerVerified(
        _ email: String, displayName: String = "Ann", username: String? = nil, with client: some TestClientProtocol
    ) async throws -> (userId: String, token: String) {
        let account = try await client.register(email, displayName: displayName, username: username)
        try await verifyEmail(email, token: account.token, with: client)
        return account
    }
}

/// Waits until `condition` holds, polling; throws when `timeout` passes first.
func waitUntil(timeout: Duration, _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut() }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// `waitUntil` gave up.
struct WaitTimedOut: Error {}

extension LogbookRuntime {
    /// The verification tokens in the outbox for `email`, newest first, unsealed as the
    /// operator's mailer would.
    func verificationTokens(to email: String) throws -> [String] {
        try accounts.outboxMails(limit: 100, now: configuration.clock())
            .filter { $0.to == email && $0.kind == .emailVerification }
            .map { try #require(auth.secrets.unseal($0.sealedToken)) }
    }

    /// Verifies `email`, the e-mail of the account signed in with `token`, with the newest
    /// verification token the outbox holds for it, as its owner clicking the link would; expects 204.
    func verifyEmail(_ email: String, token: String, with client: some TestClientProtocol) async throws {
        let link = try #require(try verificationTokens(to: email).first, "no verification mail to \(email)")
        let verified = try await client.send(.post, "/v1/email-verifications/\(link)", token: token)
        try #require(verified.status == .noContent, "verify \(email): \(verified.text)")
    }
}
