import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// Bodies broken on the wire (a chunk size that is no number, a body that ends before its
/// Content-Length or its last chunk, a client that resets mid-body) are the client's fault: 400
/// problem+json `malformed_body` wherever the server can still answer, never a 500, neither
/// logged nor counted as a server error, and nothing of the request applied.
@Suite("Broken request bodies", .timeLimit(.minutes(3)))
struct BrokenBodyTests {
    private static let operatorToken = "operator-secret"

    /// One way for a body to break: the framing header, the bytes sent around a payload (at most
    /// 63 bytes), and whether the client then half-closes.
    private struct BrokenBody: Sendable {
        let name: String
        let framing: String
        let body: @Sendable (Data) -> Data
        let halfClose: Bool
    }

    /// A POST's head with `fields` (each with its CRLF) and the blank line.
    private static func head(_ path: String, _ fields: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n"
    }

    /// The ways a body can end other than as its framing promised; each but the first followed
    /// by the client's half-close (it has sent all it will), where the body would otherwise
    /// still be awaited.
    private static let brokenBodies: [BrokenBody] = [
        BrokenBody(name: "a chunk size that is not hex", framing: "Transfer-Encoding: chunked\r\n",
                   body: { Data("zz\r\n".utf8) + $0 + Data("\r\n0\r\n\r\n".utf8) }, halfClose: false),
        BrokenBody(name: "a chunk cut short", framing: "Transfer-Encoding: chunked\r\n", body: { Data("40\r\n".utf8) + $0 }, halfClose: true),
        BrokenBody(name: "no last chunk", framing: "Transfer-Encoding: chunked\r\n",
                   body: { Data(String($0.count, radix: 16).utf8) + Data("\r\n".utf8) + $0 + Data("\r\n".utf8) }, halfClose: true),
        BrokenBody(name: "shorter than its Content-Length", framing: "Content-Length: 100\r\n", body: { $0 }, halfClose: true),
    ]

    @Test func aBodyBrokenOnTheWireIs400MalformedBodyOnEveryKindOfRoute() async throws {
        try await Self.withServer { client, port, ann in
            // Anonymous (registration), signed in (a command), and the streamed image upload,
            // whose bytes start as a JPEG's so that the store takes them until the body breaks.
            let routes: [(path: String, fields: String, payload: Data)] = [
                ("/v1/accounts", "Content-Type: application/json\r\n", Data(#"{"email":"ann@"#.utf8)),
                ("/v1/houses", "Content-Type: application/json\r\nAuthorization: Bearer \(ann)\r\n", Data(#"{"name":"Ca"#.utf8)),
                ("/v1/blobs", "Content-Type: image/jpeg\r\nAuthorization: Bearer \(ann)\r\n", TestImages.jpeg(count: 40)),
            ]
            for route in routes {
                for broken in Self.brokenBodies {
                    let (head, body) = (Self.head(route.path, route.fields + broken.framing), broken.body(route.payload))
                    let received = try await RawHTTPConnection.offThePool {
                        let connection = try RawHTTPConnection(port: port)
                        connection.send(head)
                        connection.send(body)
                        if broken.halfClose { connection.halfClose() }
                        return connection.receive(untilClosed: true)
                    }
                    let what = "\(route.path), \(broken.name)"
                    #expect(received.status == 400, "\(what): \(String(decoding: received.bytes, as: UTF8.self))")
                    #expect(received.headers["content-type"] == "application/problem+json", "\(what)")
                    #expect(received.json["code"] as? String == "malformed_body", "\(what): \(received.text)")
                    #expect(received.json["status"] as? Int == 400, "\(what)")
                    #expect(received.responses == 1, "\(what): one answer, then the connection closes")
                }
            }
            #expect(try await client.send(.get, "/v1/me/house", token: ann).status == .notFound, "no house was made")
            let refused = try await client.metrics(token: Self.operatorToken).samples
                .filter { $0.name == "logbook_http_requests_total" && $0.labels["status"] == "400" }.reduce(0) { $0 + $1.value }
            #expect(refused == Double(routes.count * Self.brokenBodies.count))
        }
    }

    /// A client that resets the connection mid-body leaves no one to answer: the request is
    /// still no server error, in the log or the metrics, and nothing of it is kept.
    @Test func aClientThatResetsMidBodyIsNoServerError() async throws {
        try await Self.withServer { client, port, ann in
            let requests: [(path: String, fields: String, body: Data)] = [
                ("/v1/accounts", "Content-Type: application/json\r\nContent-Length: 100\r\n", Data(#"{"email":"ann@"#.utf8)),
                ("/v1/houses", "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nAuthorization: Bearer \(ann)\r\n",
                 Data("40\r\n{\"name\":\"Ca".utf8)),
                ("/v1/blobs", "Content-Type: image/jpeg\r\nContent-Length: 100000\r\nAuthorization: Bearer \(ann)\r\n", TestImages.jpeg(count: 4096)),
            ]
            let counted = try await Self.requestsCounted(client)
            for request in requests {
                let head = Self.head(request.path, request.fields)
                try await RawHTTPConnection.offThePool {
                    let connection = try RawHTTPConnection(port: port)
                    connection.send(head)
                    connection.send(request.body)
                    // Give the server time to start on the body, so the reset cuts it mid-way.
                    Thread.sleep(forTimeInterval: 0.1)
                    connection.reset()
                }
            }
            // Each reset request is counted once the server has given up on it.
            var total = counted
            for _ in 0..<100 where total < counted + Double(requests.count) {
                try await Task.sleep(for: .milliseconds(50))
                total = try await Self.requestsCounted(client)
            }
            #expect(total == counted + Double(requests.count), "every reset request is counted")
        }
    }

    /// Runs `body` against a server with the operator's token and a user, Ann (her token), on the
    /// server's port; then checks what no broken body may leave: an event appended, an image or
    /// upload kept, a server error counted in /metrics or logged.
    private static func withServer(_ body: @Sendable (any TestClientProtocol, Int, String) async throws -> Void) async throws {
        let server = try TestServer { $0.operatorToken = operatorToken }
        defer { server.remove() }
        let capture = LogCapture()
        try await server.test(logger: capture.logger()) { client in
            let port = try #require(client.port)
            let (_, ann) = try await client.register("ann@example.org")
            let logHead = try await server.runtime.log.headPosition()
            try await body(client, port, ann)
            #expect(try await server.runtime.log.headPosition() == logHead, "nothing of a broken request was appended")
            #expect(server.storedBlobFiles().isEmpty && server.noTemporaryUploads(), "no image kept, no upload left")
            let requests = try await client.metrics(token: operatorToken).samples.filter { $0.name == "logbook_http_requests_total" }
            #expect(!requests.contains { $0.labels["status"]?.hasPrefix("5") == true }, "a server error was counted: \(requests)")
        }
        let failures = capture.all.filter { $0.hasPrefix("error") || $0.contains("request failed") }
        #expect(failures.isEmpty, "logged as the service's failure: \(failures)")
    }

    /// `logbook_http_requests_total` over every series but the scrapes' own.
    private static func requestsCounted(_ client: some TestClientProtocol) async throws -> Double {
        try await client.metrics(token: operatorToken).samples
            .filter { $0.name == "logbook_http_requests_total" && $0.labels["route"] != "/metrics" }
            .reduce(0) { $0 + $1.value }
    }
}
