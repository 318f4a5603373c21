import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `DELETE /v1/me`: the password check is limited like a password change's, and what an erasure
/// ends (sessions, logins) and frees (e-mail, username) right away, before any rebuild.
@Suite("Account erasure route", .timeLimit(.minutes(3)))
struct AccountErasureRouteTests {
    @Test func wrongPasswordsCountAgainstThePasswordChangeLimit() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            for attempt in 1...10 {
                let reply = try await client.send(.delete, "/v1/me", json: ["password": "wrong password"], token: token)
                #expect(reply.status == .forbidden && reply.code == "invalid_credentials", "attempt \(attempt)")
                clock.advance(by: 10)
            }
            let held = try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: token)
            #expect(held.status == .tooManyRequests && held.code == "too_many_attempts" && held.isProblem)
            #expect(held.headers[.retryAfter] == String(15 * 60 - 100))
            // One limit for both: a password change is held too, and nothing was erased.
            let change = ["currentPassword": "correct horse", "newPassword": "battery staple"]
            #expect(try await client.send(.put, "/v1/me/password", json: change, token: token).status == .tooManyRequests)
            #expect(try await client.me(token).status == .ok)
            clock.advance(by: 15 * 60 - 100)
            #expect(try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: token).status == .noContent)
        }
    }

    @Test func erasureEndsEverySessionAndFreesTheEmailAndUsernameAtOnce() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (annId, first) = try await client.register("ann@example.org", username: "Annie")
            let second = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            let bob = try await client.register("bob@example.org", displayName: "Bob").token
            // Taken while Ann exists.
            #expect(try await client.send(.post, "/v1/accounts", json: ["email": "ANN@example.org", "password": "another one", "displayName": "X"]).code == "email_taken")

            #expect(try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: first).status == .noContent)
            for token in [first, second] {
                let refused = try await client.me(token)
                #expect(refused.status == .unauthorized && refused.isProblem)
            }
            #expect(try await client.login("ann@example.org", "correct horse").status == .unauthorized)
            #expect(try await client.me(bob).status == .ok, "others' sessions are untouched")
            #expect(try server.runtime.personalData.isErased(annId))
            #expect(try server.runtime.personalData.dataKey(of: annId, create: true) == nil, "no new key for an erased account")

            let again = try await client.register("Ann@Example.org", displayName: "Ann Again", username: "annie")
            #expect(again.userId != annId)
            let me = try await client.me(again.token)
            #expect(me.json["email"] as? String == "ann@example.org" && me.json["username"] as? String == "annie")
            await server.runtime.readModelsScrubbed()
            #expect(try await client.me(again.token).json["displayName"] as? String == "Ann Again")
        }
    }
}
