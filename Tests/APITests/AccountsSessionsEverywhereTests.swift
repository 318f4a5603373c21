import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// Issue 48 item 5: a password change, a password reset and `DELETE /v1/sessions` end the
/// sessions a thief may hold; the change keeps only the session that made it.
@Suite("Accounts: sessions that end with the password, and everywhere", .timeLimit(.minutes(3)))
struct AccountsSessionsEverywhereTests {
    @Test func aPasswordChangeEndsEveryOtherSession() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, owner) = try await client.register("ann@example.org")
            let stolen = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            #expect(try await client.me(stolen).status == .ok)
            let changed = try await client.send(.put, "/v1/me/password", json: [
                "currentPassword": "correct horse", "newPassword": "battery staple",
            ], token: owner)
            #expect(changed.status == .noContent, "\(changed.text)")
            let after = try await client.me(stolen)
            #expect(after.status == .unauthorized && after.code == "unauthorized", "the stolen token died with the old password")
            #expect(try await client.me(owner).status == .ok, "the session that changed it stays")
        }
    }

    @Test func aPasswordResetEndsEverySession() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, first) = try await client.register("ann@example.org")
            let second = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            let token = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            #expect(try await client.send(.post, "/v1/password-resets/\(token)", json: ["newPassword": "battery staple"]).status == .noContent)
            #expect(try await client.me(first).status == .unauthorized)
            #expect(try await client.me(second).status == .unauthorized)
        }
    }

    @Test func signingOutEverywhereEndsEverySessionOfTheAccountOnly() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, phone) = try await client.register("ann@example.org")
            let laptop = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            let (_, bob) = try await client.register("bob@example.org", displayName: "Bob")
            let key = UUID().uuidString
            let out = try await client.send(.delete, "/v1/sessions", token: phone, key: key)
            #expect(out.status == .noContent && out.body.isEmpty, "\(out.text)")
            #expect(try await client.me(phone).status == .unauthorized)
            #expect(try await client.me(laptop).status == .unauthorized)
            #expect(try await client.me(bob).status == .ok, "another account's sessions stay")
            // A retry of the sign-out that worked answers as the first; any other use of the dead token is 401.
            #expect(try await client.send(.delete, "/v1/sessions", token: phone, key: key).status == .noContent)
            #expect(try await client.send(.delete, "/v1/sessions", token: phone).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/sessions").status == .unauthorized)
            #expect(try await client.login("ann@example.org", "correct horse").status == .created, "the password still works")
        }
    }
}
