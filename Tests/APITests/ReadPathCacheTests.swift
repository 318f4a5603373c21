import Foundation
import HummingbirdTesting
import Testing
@testable import API
@testable import Projections

/// The in-memory caches of the read path (sessions by token, members by house) through HTTP:
/// a value cached by one request must never outlive the command that changed it, not even for
/// the very next request after the command's answer.
@Suite("Read path caches", .timeLimit(.minutes(3)))
struct ReadPathCacheTests {
    @Test func aLoggedOutTokenIs401OnTheVeryNextRequestThoughItWasCached() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let other = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            #expect(try await client.me(token).status == .ok)
            #expect(try await client.me(other).status == .ok)
            #expect(server.runtime.accounts.sessions.count >= 2, "both sessions are served from memory now")

            #expect(try await client.send(.delete, "/v1/sessions/current", token: token).status == .noContent)
            let after = try await client.me(token)
            #expect(after.status == .unauthorized && after.code == "unauthorized", "\(after.text)")
            #expect(try await client.send(.get, "/v1/me/activity", token: token).status == .unauthorized)
            #expect(try await client.me(other).status == .ok, "the other cached session stays")
        }
    }

    /// SPEC Accounts: a password change ends every other session, a redeemed reset ends them
    /// all, each on the very next request though the sessions were cached.
    @Test func aPasswordChangeAndARedeemedResetEndCachedSessionsAtOnce() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let other = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            for session in [token, other] { #expect(try await client.me(session).status == .ok) }

            let changed = try await client.send(.put, "/v1/me/password", json: [
                "currentPassword": "correct horse", "newPassword": "battery staple",
            ], token: token)
            #expect(changed.status == .noContent)
            #expect(try await client.me(token).status == .ok, "the session that changed it stays")
            #expect(try await client.me(other).status == .unauthorized, "a cached session ended by the change")

            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            let redeemed = try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "another one"])
            #expect(redeemed.status == .noContent)
            let after = try await client.me(token)
            #expect(after.status == .unauthorized && after.code == "unauthorized", "a cached session ended by the reset: \(after.text)")
        }
    }

    @Test func aMemberWhoLeftIsRefusedAtOnceAndANewMemberAdmittedAtOnce() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann").token
            let bob = try await client.register("bob@example.org", displayName: "Bob").token
            let cara = try await client.register("cara@example.org", displayName: "Cara").token
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(created.json["houseId"] as? String)
            let code = try #require(created.json["joinCode"] as? String)
            #expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: bob).status == .ok)

            let board = "/v1/houses/\(houseId)/scoreboard", history = "/v1/houses/\(houseId)/history"
            #expect(try await client.send(.get, board, token: bob).status == .ok)
            #expect(try await client.send(.get, history, token: bob).status == .ok)
            // Cached now, without Cara: the cache must not keep refusing her once she joined.
            #expect(try await client.send(.get, board, token: cara).code == "not_a_member")
            #expect(server.runtime.household.memberships.count == 1, "the house's members are served from memory now")

            #expect(try await client.send(.post, "/v1/houses/\(houseId)/leave", token: bob).status == .noContent)
            for path in [board, history, "/v1/houses/\(houseId)"] {
                let refused = try await client.send(.get, path, token: bob)
                #expect(refused.status == .forbidden && refused.code == "not_a_member", "\(path) right after leaving: \(refused.text)")
            }

            #expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: cara).status == .ok)
            let admitted = try await client.send(.get, board, token: cara)
            #expect(admitted.status == .ok, "\(admitted.text)")
            let names = (admitted.json["members"] as? [[String: Any]])?.compactMap { $0["displayName"] as? String }
            #expect(names == ["Ann", "Cara"])
            #expect(try await client.send(.get, history, token: cara).status == .ok)

            // The last member out closes the house: a cached open house must not outlive that.
            #expect(try await client.send(.get, board, token: ann).status == .ok)
            for member in [cara, ann] { #expect(try await client.send(.post, "/v1/houses/\(houseId)/leave", token: member).status == .noContent) }
            for path in [board, history] {
                let closed = try await client.send(.get, path, token: ann)
                #expect(closed.status == .notFound && closed.code == "house_not_found", "\(path) of a closed house: \(closed.text)")
            }
        }
    }
}
