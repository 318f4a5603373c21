import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Requests at the edges of what openapi.yaml allows are accepted: the contract is not looser
/// than the server (a rule found by schemathesis' positive-data check).
@Suite("Schema-valid requests are accepted", .timeLimit(.minutes(3)))
struct ContractConformanceTests {
    /// JSON Schema counts a string's length in code points: "e" with a combining accent is two,
    /// so eight of those scalars meet minLength 8, and the server must take them as eight.
    @Test func aPasswordOfEightCodePointsIsLongEnough() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let password = String(repeating: "e\u{301}", count: 4)
        #expect(password.count == 4 && password.unicodeScalars.count == 8)
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org", password: password)
            #expect(try await client.login("ann@example.org", password).status == .created)
            let change = try await client.send(
                .put, "/v1/me/password", json: ["currentPassword": password, "newPassword": String(repeating: "a\u{308}", count: 4)], token: token)
            #expect(change.status == .noContent, "\(change.text)")
            // Seven code points stay too short, whatever they look like.
            let short = try await client.send(.post, "/v1/accounts", json: [
                "email": "bob@example.org", "password": String(repeating: "x", count: 7), "displayName": "Bob"])
            #expect(short.status == .unprocessableContent)
            #expect(short.code == "validation_failed")
        }
    }

    /// Names at the contract's bounds: 100 code points, an emoji sequence joined by U+200D, and
    /// spaces around a name, which the server trims.
    @Test func namesAtTheContractsBoundsAreAccepted() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org", displayName: "  👩‍👩‍👧 Ann  ")
            let house = try await client.send(.post, "/v1/houses", json: ["name": String(repeating: "é", count: 100)], token: token)
            #expect(house.status == .created, "\(house.text)")
            let houseId = try #require(house.json["houseId"] as? String)
            let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "👩‍👩‍👧"], token: token)
            #expect(room.status == .created, "\(room.text)")
        }
    }

    /// A parameter the generated code cannot decode is 400 malformed_request naming a parameter,
    /// not the body; a body of the wrong shape names the body.
    @Test func undecodableInputIsA400ProblemSayingWhere() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let limit = try await client.send(.get, "/v1/me/activity?limit=abc", token: token)
            #expect(limit.status == .badRequest && limit.code == "malformed_request")
            #expect(limit.headers[.contentType] == "application/problem+json")
            #expect(limit.text.contains("a parameter should be an integer"), "\(limit.text)")
            let body = try await client.send(.post, "/v1/houses", raw: "[]", token: token)
            #expect(body.status == .badRequest && body.code == "malformed_request")
            #expect(body.text.contains("the body should be an object"), "\(body.text)")
        }
    }
}
