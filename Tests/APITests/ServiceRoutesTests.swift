import Foundation
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import Projections
import Testing
@testable import API

@Suite("Service routes and errors", .timeLimit(.minutes(3)))
struct ServiceRoutesTests {
    @Test func healthReportsLogAndProjectedPositions() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(response.json["status"] as? String == "ok")
                #expect(response.json["logPosition"] as? Int == 0)
                #expect(response.json["projectedPosition"] as? Int == 0)
                let text = String(buffer: response.body)
                #expect(!text.contains("\n") && !text.contains(": "), "compact JSON: \(text)")
            }
        }
    }

    /// `/health/ready` turns 200 once the runner has caught up, with every projection serving.
    @Test(.timeLimit(.minutes(3))) func readinessIsReportedOnceTheRunnerHasCaughtUp() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            var reply = try await client.send(.get, "/health/ready")
            let deadline = ContinuousClock.now + .seconds(10)
            while reply.status != .ok, ContinuousClock.now < deadline {
                #expect(reply.status == .serviceUnavailable && !(reply.json["reasons"] as? [String] ?? []).isEmpty, "\(reply.text)")
                try await Task.sleep(for: .milliseconds(10))
                reply = try await client.send(.get, "/health/ready")
            }
            #expect(reply.status == .ok && reply.headers[.contentType]?.hasPrefix("application/json") == true, "\(reply.text)")
            #expect(reply.json["status"] as? String == "ready" && reply.json["runner"] as? String == "running")
            #expect(reply.json["logWriter"] as? String == "open" && (reply.json["reasons"] as? [String]) == [])
            let projections = reply.json["projections"] as? [[String: Any]] ?? []
            #expect(projections.count == LogbookProjections.all.count)
            #expect(projections.allSatisfy { $0["state"] as? String == "serving" && $0["lag"] as? Int == 0 })
        }
    }

    /// Before the runner starts, and once the log is closed, the instance is not ready, and says why.
    @Test func notReadyBeforeTheRunnerStartsNorOnceTheLogIsClosed() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let api = LogbookAPI(runtime: server.runtime, document: try OpenAPIDocument.container(), console: try ConsoleFiles.load())
        let starting = try await api.readiness()
        #expect(starting.status == .notReady && starting.runner == .starting)
        #expect(starting.reasons == ["the projection runner has not started"])
        server.runtime.close()
        let closed = try await api.readiness()
        #expect(closed.logWriter == .closed && closed.reasons.contains("the log is closed"))
        guard case let .serviceUnavailable(unavailable) = try await api.getReadiness(.init()), case let .json(body) = unavailable.body else {
            Issue.record("not ready must be 503")
            return
        }
        #expect(body == closed)
    }

    @Test func openAPIDocumentIsServedAsTheShippedContract() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let shippedBytes = try OpenAPIDocument.data()
        try await server.test { client in
            let shipped = try JSONSerialization.jsonObject(with: shippedBytes) as? NSDictionary
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let served = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? NSDictionary
                #expect(served == shipped)
                #expect((served?["openapi"] as? String)?.hasPrefix("3.1") == true)
            }
        }
    }

    @Test func anUnknownRouteIsAProblemNotAPage() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            try await client.execute(uri: "/v1/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.json["code"] as? String == "not_found")
                #expect(response.json["status"] as? Int == 404)
                #expect(response.json["type"] as? String == "/problems/not_found")
            }
        }
    }

    @Test func aBodyOverTheLimitIsRefusedWith413() async throws {
        let server = try TestServer { $0.jsonBodyBytesMax = 1_000 }
        defer { server.remove() }
        try await server.test { client in
            let big = ByteBuffer(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 5_000))
            try await client.execute(uri: "/health", method: .post, headers: [.contentType: "application/json"], body: big) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.json["code"] as? String == "body_too_large")
            }
        }
    }

    @Test func aWrongMethodIsAProblem() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            try await client.execute(uri: "/health", method: .delete) { response in
                #expect([.notFound, .methodNotAllowed].contains(response.status))
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    /// `EmptyBodyMiddleware`: a route whose body is required answers a missing body with the
    /// fields it misses; an empty body with a Content-Type, or a body without one, is not touched.
    @Test func aMissingBodyIsTheEmptyObject() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let token = try await client.register("ann@example.org").token
            let none = try await client.send(.post, "/v1/houses", token: token)
            #expect(none.status == .badRequest && none.code == "malformed_request" && none.text.contains("name"), "\(none.text)")
            let empty = try await client.send(.post, "/v1/houses", raw: "", token: token)
            #expect(empty.status == .badRequest && empty.code == "malformed_request" && !empty.text.contains("name"), "\(empty.text)")
            let untyped = try await client.send(.post, "/v1/houses", raw: #"{"name":"Canal House"}"#, token: token, contentType: nil)
            // A non-empty body without Content-Type is left alone (the generated server reads it as
            // JSON); the middleware once refused it as too large.
            #expect(untyped.status == .created, "a body without Content-Type: \(untyped.text)")
        }
    }
}
