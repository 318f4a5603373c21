import Foundation
import HTTPTypes
import LogbookClient
import OpenAPIRuntime
import Synchronization
import Testing

/// RetryPolicy's handling of an overloaded server, against a scripted transport (the one place
/// these tests stub the network: a real server's 429 and 503 cannot be timed to the test).
@Suite("Client: Retry-After", .timeLimit(.minutes(1)))
struct RetryAfterTests {
    /// Answers each request with the next of `script` and notes when it came, and its
    /// Idempotency-Key.
    final class ScriptedTransport: ClientTransport, Sendable {
        private let script: Mutex<[(status: Int, retryAfter: String?)]>
        let sent = Mutex<[(at: ContinuousClock.Instant, key: String?)]>([])

        init(_ script: [(status: Int, retryAfter: String?)]) { self.script = Mutex(script) }

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            sent.withLock { $0.append((.now, request.headerFields[HTTPField.Name("Idempotency-Key")!])) }
            let (status, retryAfter) = script.withLock { $0.removeFirst() }
            var headers: HTTPFields = [.contentType: status < 400 ? "application/json" : "application/problem+json"]
            if let retryAfter { headers[.retryAfter] = retryAfter }
            let body = status < 400
                ? #"{"pointsAwarded":5,"totalPoints":5,"position":42,"events":["household.taskCompleted"]}"#
                : #"{"type":"about:blank","title":"Busy","status":\#(status),"code":"busy"}"#
            return (HTTPResponse(status: .init(code: status), headerFields: headers), HTTPBody(body))
        }
    }

    static func client(_ transport: ScriptedTransport) throws -> LogbookClient {
        try LogbookClient(.init(
            serverURL: URL(string: "http://127.0.0.1:9")!, credentials: MemoryCredentialStore(Credentials(userId: "u", token: "t", expiresAt: .distantFuture)),
            retry: RetryPolicy(attempts: 3, delayInitial: .milliseconds(10), delayMax: .milliseconds(20), retryAfterMax: .seconds(5)),
            transport: transport))
    }

    static func complete(on client: LogbookClient) async throws -> Int64 {
        try await client.run { try await $0.completeTask(path: .init(houseId: UUID().uuidString.lowercased(), taskId: UUID().uuidString.lowercased())).created.body.json }.position
    }

    @Test(arguments: [429, 503])
    func aRetryWaitsAsLongAsRetryAfterSaysWithTheSameKey(status: Int) async throws {
        let transport = ScriptedTransport([(status, "1"), (201, nil)])
        #expect(try await Self.complete(on: try Self.client(transport)) == 42)
        let sent = transport.sent.withLock { $0 }
        #expect(sent.count == 2)
        #expect(sent[1].at - sent[0].at >= .seconds(1), "the policy's own delay is 20 ms at most")
        #expect(sent[0].key != nil && sent[1].key == sent[0].key)
    }

    @Test func aRetryAfterPastThePolicysPatienceIsThrownAtOnce() async throws {
        let transport = ScriptedTransport([(503, "60"), (201, nil)])
        let problem = await #expect(throws: LogbookProblem.self) { try await Self.complete(on: try Self.client(transport)) }
        #expect(problem?.status == 503)
        #expect(problem?.retryAfterSeconds == 60)
        #expect(transport.sent.withLock { $0.count } == 1)
    }

    @Test func aRefusalThatIsNotTransientIsNotRetried() async throws {
        let transport = ScriptedTransport([(409, nil), (201, nil)])
        let problem = await #expect(throws: LogbookProblem.self) { try await Self.complete(on: try Self.client(transport)) }
        #expect(problem?.code == "busy")
        #expect(transport.sent.withLock { $0.count } == 1)
    }
}
