import Blobs
import EventLog
import Foundation
import TestSupport
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One log line per request (method, route template, status, duration, correlation id), the
/// correlation id echoed and carried into the commands' events, and nothing secret or personal
/// in any line.
@Suite("Request logs", .timeLimit(.minutes(3)))
struct RequestLogTests {
    private static let correlationField = HTTPField.Name("X-Correlation-ID")!
    private static let requestIDField = HTTPField.Name("X-Request-ID")!

    private func get(_ client: any TestClientProtocol, _ uri: String, _ headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: headers, body: nil)
    }

    @Test func everyRequestIsOneInfoLineWithRouteStatusDurationAndCorrelationID() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let logs = LogCapture()
        try await server.test(logger: logs.logger()) { client in
            let ann = try await client.register("ann@example.org").token
            let houseId = try #require(try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann).json["houseId"] as? String)
            _ = try await client.send(.get, "/v1/houses/\(houseId)", token: ann)
            _ = try await client.send(.get, "/v1/nothing-here")
            let lines = logs.all.filter { $0.hasPrefix("info request ") }
            #expect(lines.count == 4, "\(lines)")
            let expected = [("POST", "/v1/accounts", "201"), ("POST", "/v1/houses", "201"), ("GET", "/v1/houses/{houseId}", "200"), ("GET", "unmatched", "404")]
            for ((method, route, status), line) in zip(expected, lines) {
                #expect(line.contains(#""method": \#(method)"#) && line.contains(#""route": \#(route)"#) && line.contains(#""status": \#(status)"#), "\(line)")
                #expect(line.firstMatch(of: /"duration_ms": [0-9]+\.[0-9]{3}/) != nil, "\(line)")
                #expect(line.firstMatch(of: /"correlation_id": [0-9a-f-]{36}/) != nil, "\(line)")
                #expect(!line.contains(houseId), "no raw path: \(line)")
            }
        }
    }

    @Test func aSafeCorrelationIDIsEchoedAndAnythingElseReplaced() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let logs = LogCapture()
        try await server.test(logger: logs.logger()) { client in
            let given = try await get(client, "/health", [Self.correlationField: "trace-42.A_b"])
            #expect(given.headers[Self.correlationField] == "trace-42.A_b")
            let requestID = try await get(client, "/health", [Self.requestIDField: "req-7"])
            #expect(requestID.headers[Self.correlationField] == "req-7", "X-Request-ID is taken when there is no X-Correlation-ID")
            let fresh = try await get(client, "/health")
            let freshID = try #require(fresh.headers[Self.correlationField])
            #expect(UUID(uuidString: freshID) != nil)
            for unsafe in ["ann@example.org", "Bearer abc", String(repeating: "a", count: 65), "a\u{7F}b", "x%0Ay"] {
                let reply = try await get(client, "/health", [Self.correlationField: unsafe])
                let echoed = try #require(reply.headers[Self.correlationField])
                #expect(UUID(uuidString: echoed) != nil, "\(unsafe) was replaced, not echoed")
                #expect(!logs.all.contains { $0.contains(unsafe) }, "\(unsafe) is not logged")
            }
            #expect(logs.all.contains { $0.contains("trace-42.A_b") && $0.contains("/health") })
            // An error answer carries it too.
            let missing = try await get(client, "/v1/nothing-here", [Self.correlationField: "trace-43"])
            #expect(missing.status == .notFound && missing.headers[Self.correlationField] == "trace-43")
        }
    }

    @Test func aCommandCarriesTheRequestsCorrelationIDIntoTheLog() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let correlation = UUID()
            var headers: HTTPFields = [.authorization: "Bearer \(ann)", .contentType: "application/json"]
            headers[Self.correlationField] = correlation.uuidString
            let created = try await client.execute(
                uri: "/v1/houses", method: .post, headers: headers, body: .init(string: #"{"name":"Canal House"}"#))
            #expect(created.status == .created)
            // Another user: one house each.
            let bob = try await client.register("bob@example.org").token
            headers[.authorization] = "Bearer \(bob)"
            headers[Self.correlationField] = "checkout-flow-9"
            let second = try await client.execute(
                uri: "/v1/houses", method: .post, headers: headers, body: .init(string: #"{"name":"Garden House"}"#))
            #expect(second.status == .created)

            let events = try server.runtime.log.lmdb.readAll(from: 1, direction: .forward, limit: 1_000).filter { $0.type == "household.houseCreated" }
            try #require(events.count == 2)
            #expect(events[0].correlationID == correlation, "a UUID is the command's correlation id as it is")
            let derived = RequestCorrelation(id: "checkout-flow-9").commandCorrelationID
            #expect(events[1].correlationID == derived, "another token becomes a UUID derived from it")
            #expect(events[1].correlationID != events[1].commandID)
            #expect(derived == RequestCorrelation(id: "checkout-flow-9").commandCorrelationID && derived != RequestCorrelation(id: "checkout-flow-8").commandCorrelationID)
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func theServersLogLinesHoldNoSecretOrPersonalData() async throws {
        let directory = TemporaryDataDirectory()
        let operatorToken = "operator-token-\(UUID().uuidString)"
        let server = try await ServerProcess(
            dataDirectory: directory.path, environment: ["LOGBOOK_OPERATOR_TOKEN": operatorToken, "LOGBOOK_SECRET_KEY": ""],
            capturingStandardError: true)
        defer { server.kill() }
        let client = server.client
        let email = "zebulon.quixote@example.org", password = "Xylophone-Password-91", newPassword = "Marmalade-Password-37"
        let displayName = "Zebulon Quixote", newDisplayName = "Quentin Zephyr", lastName = "Vanderquack"

        var requests = 0
        let (_, registered) = try await client.register(email, displayName: displayName, password: password); requests += 1
        let token = try await client.login(email, password); requests += 1
        let profile = try await client.send("PATCH", "/v1/me", json: ["displayName": newDisplayName, "lastName": lastName], token: token); requests += 1
        #expect(profile.status == 200, "\(profile.text)")
        let upload = try await Self.upload(SolidPNG.image(width: 2, height: 2, red: 9, green: 8, blue: 7), to: server.address, token: token); requests += 1
        #expect(upload == 201)
        let reset = try await client.send("POST", "/v1/password-resets", json: ["email": email]); requests += 1
        #expect(reset.status == 202)
        let resetToken = try await Self.resetToken(dataDirectory: directory.path)
        let redeemed = try await client.send("POST", "/v1/password-resets/\(resetToken)", json: ["newPassword": newPassword]); requests += 1
        #expect(redeemed.status == 204, "\(redeemed.text)")
        let wrong = try await client.send("POST", "/v1/sessions", json: ["email": email, "password": password]); requests += 1
        #expect(wrong.status == 401)
        _ = try await client.login(email, newPassword); requests += 1
        #expect(try await client.send("GET", "/metrics", token: operatorToken).status == 200); requests += 1
        #expect(try await server.terminate(), "the server stops cleanly, its log flushed")

        let output = server.lines.output
        let lines = output.split(separator: "\n").map(String.init).filter { $0.hasSuffix(" request") || $0.contains(" request\n") }
        #expect(lines.count == requests, "one line per request:\n\(output)")
        for line in lines {
            #expect(line.contains(" info "), "at info level: \(line)")
            #expect(line.firstMatch(of: /route=\/\S+\s/) != nil && line.firstMatch(of: /status=[1-5][0-9]{2}/) != nil, "\(line)")
            #expect(line.firstMatch(of: /duration_ms=[0-9]+\.[0-9]{3}/) != nil && line.firstMatch(of: /correlation_id=[0-9a-f-]{36}/) != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains("route=/v1/password-resets/{token}") && $0.contains("status=204") })
        #expect(lines.contains { $0.contains("route=/v1/blobs") && $0.contains("status=201") })
        #expect(lines.contains { $0.contains("route=/metrics") && $0.contains("status=200") })
        // Nothing secret or personal, in any line the server wrote (not only the request lines).
        let secrets = [password, newPassword, registered, token, resetToken, operatorToken, email, "zebulon", displayName, newDisplayName, lastName]
        for secret in secrets {
            #expect(!output.lowercased().contains(secret.lowercased()), "the server's output holds \(secret):\n\(output)")
        }
    }

    /// Uploads `bytes` as a PNG to the real server; its status.
    private static func upload(_ bytes: Data, to base: String, token: String) async throws -> Int {
        var request = URLRequest(url: URL(string: base + "/v1/blobs")!)
        request.httpMethod = "POST"
        request.httpBody = bytes
        request.setValue("image/png", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// The reset token the server's worker put in the outbox, read as the operator's mailer does.
    private static func resetToken(dataDirectory: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let outbox = try await AdminTool.run(["outbox", "--data-dir", dataDirectory, "--json"], unsetting: ["LOGBOOK_SECRET_KEY", "LOGBOOK_DATA_DIR"])
            if let line = outbox.stdout.split(separator: "\n").first,
               let mail = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let token = mail["token"] as? String {
                return token
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CocoaError(.fileReadNoSuchFile)
    }
}
