import Foundation
import HummingbirdTesting
import Testing
@testable import API

@Suite("Accounts: registration", .timeLimit(.minutes(3)))
struct AccountsRegistrationTests {
    @Test func registerAnswers201WithATokenThatWorksAtOnce() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let reply = try await client.send(.post, "/v1/accounts", json: [
                "email": " Ann@Example.ORG ", "password": "correct horse", "displayName": " Ann ", "firstName": "Ann",
                "lastName": "Smith", "username": "Ann_S", "postcode": "1234 ab",
            ])
            #expect(reply.status == .created)
            let userId = try #require(reply.json["userId"] as? String)
            let token = try #require(reply.json["token"] as? String)
            #expect(token.count == 43)
            let thirtyDays = clock.now.addingTimeInterval(30 * 24 * 3600)
            #expect(reply.json["expiresAt"] as? String == thirtyDays.formatted(.iso8601))
            #expect(reply.json["events"] as? [String] == ["account.registered", "account.emailVerificationRequested", "account.sessionStarted"])
            #expect((reply.json["position"] as? Int ?? 0) >= 3)

            // Read-your-writes: the profile is there on the next request.
            let me = try await client.me(token)
            #expect(me.status == .ok)
            #expect(me.json["userId"] as? String == userId)
            #expect(me.json["email"] as? String == "ann@example.org")
            #expect(me.json["displayName"] as? String == "Ann")
            #expect(me.json["firstName"] as? String == "Ann")
            #expect(me.json["lastName"] as? String == "Smith")
            #expect(me.json["username"] as? String == "Ann_S")
            #expect(me.json["postcode"] as? String == "1234AB")
        }
    }

    @Test func optionalProfileFieldsAreAbsentWhenNotGiven() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("bob@example.org", displayName: "Bob")
            let me = try await client.me(token)
            #expect(Set(me.json.keys) == ["userId", "email", "displayName", "emailVerified"])
        }
    }

    @Test func aBodyOfTheWrongShapeIs400MalformedRequest() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let wrongType = try await client.send(.post, "/v1/accounts", json: ["email": 42, "password": "correct horse", "displayName": "Ann"])
            let missing = try await client.send(.post, "/v1/accounts", json: ["email": "ann@example.org", "displayName": "Ann"])
            let notJSON = try await client.send(.post, "/v1/accounts", raw: "{not json")
            for reply in [wrongType, missing, notJSON] {
                #expect(reply.status == .badRequest && reply.code == "malformed_request" && reply.isProblem, "\(reply.text)")
            }
            #expect(missing.json["detail"] as? String == "the request does not match the API: password is required")
            #expect(missing.fieldsInError == ["password"] && wrongType.fieldsInError == ["email"] && notJSON.fieldsInError.isEmpty)
        }
    }

    @Test func invalidFieldsAre422ListingEveryOne() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let reply = try await client.send(.post, "/v1/accounts", json: [
                "email": "not-an-email", "password": "short", "displayName": " ", "username": "a b", "postcode": "!",
            ])
            #expect(reply.status == .unprocessableContent && reply.code == "validation_failed" && reply.isProblem)
            #expect(Set(reply.fieldsInError) == ["email", "password", "displayName", "username", "postcode"])
        }
    }

    @Test func anEmailIsTakenWhateverItsCase() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let reply = try await client.send(.post, "/v1/accounts", json: [
                "email": "ANN@Example.org", "password": "another one", "displayName": "Other Ann",
            ])
            #expect(reply.status == .conflict && reply.code == "email_taken" && reply.isProblem)
        }
    }

    @Test func aUsernameIsTakenWhateverItsCase() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org", username: "quizzer")
            let reply = try await client.send(.post, "/v1/accounts", json: [
                "email": "bob@example.org", "password": "another one", "displayName": "Bob", "username": "QUIZZER",
            ])
            #expect(reply.status == .conflict && reply.code == "username_taken")
        }
    }

    @Test func aRetryWithTheSameKeyAnswersTheSameAccountAndToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let key = UUID().uuidString
            let body: [String: Any] = ["email": "ann@example.org", "password": "correct horse", "displayName": "Ann"]
            let first = try await client.send(.post, "/v1/accounts", json: body, key: key)
            let head = try server.runtime.log.lmdb.headPosition()
            let retry = try await client.send(.post, "/v1/accounts", json: body, key: key)
            #expect(first.status == .created && retry.status == .created)
            #expect(retry.json["userId"] as? String == first.json["userId"] as? String)
            #expect(retry.json["token"] as? String == first.json["token"] as? String)
            #expect(retry.json["expiresAt"] as? String == first.json["expiresAt"] as? String)
            #expect(retry.json["position"] as? Int == first.json["position"] as? Int)
            #expect(try server.runtime.log.lmdb.headPosition() == head, "a retry appends nothing")
            let token = try #require(retry.json["token"] as? String)
            #expect(try await client.me(token).status == .ok)

            // The same key with another password does not hand out the account's token.
            var other = body
            other["password"] = "not the same"
            let stolen = try await client.send(.post, "/v1/accounts", json: other, key: key)
            #expect(stolen.status == .unprocessableContent && stolen.code == "idempotency_key_reused")
            #expect(stolen.json["token"] == nil)
        }
    }

    @Test func anIdempotencyKeyMustBeAUUID() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let reply = try await client.send(.post, "/v1/accounts", json: [
                "email": "ann@example.org", "password": "correct horse", "displayName": "Ann",
            ], key: "not-a-uuid")
            #expect(reply.status == .badRequest && reply.code == "invalid_idempotency_key")
        }
    }
}
