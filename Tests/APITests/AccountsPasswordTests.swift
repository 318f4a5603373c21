import Foundation
import HummingbirdTesting
import Testing
@testable import API

@Suite("Accounts: passwords and resets", .timeLimit(.minutes(3)))
struct AccountsPasswordTests {
    @Test func changingThePasswordNeedsTheCurrentOne() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let wrong = try await client.send(.put, "/v1/me/password", json: [
                "currentPassword": "wrong password", "newPassword": "battery staple",
            ], token: token)
            #expect(wrong.status == .forbidden && wrong.code == "invalid_credentials" && wrong.isProblem)
            let short = try await client.send(.put, "/v1/me/password", json: [
                "currentPassword": "correct horse", "newPassword": "short",
            ], token: token)
            #expect(short.status == .unprocessableContent && short.fieldsInError == ["newPassword"])
            let missing = try await client.send(.put, "/v1/me/password", json: ["newPassword": "battery staple"], token: token)
            #expect(missing.status == .badRequest)

            let changed = try await client.send(.put, "/v1/me/password", json: [
                "currentPassword": "correct horse", "newPassword": "battery staple",
            ], token: token)
            #expect(changed.status == .noContent)
            #expect(try await client.login("ann@example.org", "correct horse").status == .unauthorized)
            #expect(try await client.login("ann@example.org", "battery staple").status == .created)
            #expect(try await client.me(token).status == .ok, "the session stays")
        }
    }

    @Test func aRetriedPasswordChangeAnswersAsTheFirst() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let body = ["currentPassword": "correct horse", "newPassword": "battery staple"]
            let key = UUID().uuidString
            #expect(try await client.send(.put, "/v1/me/password", json: body, token: token, key: key).status == .noContent)
            #expect(try await client.send(.put, "/v1/me/password", json: body, token: token, key: key).status == .noContent)
            #expect(try await client.send(.put, "/v1/me/password", json: body, token: token).status == .forbidden)
        }
    }

    @Test func resetRedeemSetsTheNewPasswordAndEndsEverySession() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let other = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            let request = try await client.send(.post, "/v1/password-resets", json: ["email": "ANN@example.org"])
            #expect(request.status == .accepted && request.body.isEmpty)

            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            let redeemed = try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "battery staple"])
            #expect(redeemed.status == .noContent)
            #expect(try await client.me(token).status == .unauthorized)
            #expect(try await client.me(other).status == .unauthorized)
            #expect(try await client.login("ann@example.org", "correct horse").status == .unauthorized)
            #expect(try await client.login("ann@example.org", "battery staple").status == .created)
            #expect(try await server.outboxTokens(to: "ann@example.org").isEmpty, "a used link is no longer mailed")

            let reused = try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "another one"])
            #expect(reused.status == .notFound && reused.code == "invalid_reset_token" && reused.isProblem)
        }
    }

    /// Many addresses guessing at the e-mail slow its logins down; the owner's reset ends that.
    @Test func aRedeemedResetEndsTheSlowdownAndARetriedRedemptionAnswersAgain() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for host in 10..<22 {
                #expect(try await client.from(host).login("ann@example.org", "wrong password").status == .unauthorized)
            }
            #expect(try await client.login("ann@example.org", "correct horse").status == .created)
            #expect(pauses.durations.last == .milliseconds(500), "12 failures from elsewhere: slowed by 2 steps")

            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            let body = ["newPassword": "battery staple"]
            let key = UUID().uuidString
            let head = try server.runtime.log.lmdb.headPosition()
            #expect(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: body, key: key).status == .noContent)
            let pausesBefore = pauses.durations.count
            #expect(try await client.login("ann@example.org", "battery staple").status == .created)
            #expect(pauses.durations.count == pausesBefore, "the reset ended the slowdown")

            let afterFirst = try server.runtime.log.lmdb.headPosition()
            #expect(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: body, key: key).status == .noContent)
            #expect(try server.runtime.log.lmdb.headPosition() == afterFirst, "a retry appends nothing")
            #expect(afterFirst > head)
            let reused = try await client.send(.post, "/v1/password-resets/\(resetToken)", json: body, key: UUID().uuidString)
            #expect(reused.status == .notFound && reused.code == "invalid_reset_token", "another key is another redemption")
        }
    }

    @Test func aResetTokenExpiresAfterAnHour() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            clock.advance(by: 3600)
            let expired = try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "battery staple"])
            #expect(expired.status == .notFound && expired.code == "invalid_reset_token")
            #expect(try await client.login("ann@example.org", "correct horse").status == .created)
        }
    }

    @Test func aBadResetTokenOrPasswordIsRefused() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for token in ["made-up", AuthTokens.random()] {
                let reply = try await client.send(.post, "/v1/password-resets/\(token)", json: ["newPassword": "battery staple"])
                #expect(reply.status == .notFound && reply.code == "invalid_reset_token")
            }
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            let short = try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "short"])
            #expect(short.status == .unprocessableContent && short.fieldsInError == ["newPassword"])
            // The token still works after a refused password.
            #expect(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "battery staple"]).status == .noContent)
        }
    }

    @Test func aResetForAnUnknownEmailAnswersTheSameAndRecordsNothing() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let head = try server.runtime.log.lmdb.headPosition()
            for email in ["nobody@example.org", "not an e-mail"] {
                let reply = try await client.send(.post, "/v1/password-resets", json: ["email": email])
                #expect(reply.status == .accepted && reply.body.isEmpty)
            }
            try await server.awaitPasswordResets()
            #expect(try server.runtime.log.lmdb.headPosition() == head)
            #expect(try await client.send(.post, "/v1/password-resets", json: ["mail": "x"]).status == .badRequest)
        }
    }

    @Test func resetRequestsPerAccountAreCapped() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for _ in 1...7 {
                #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            }
            #expect(try await server.outboxTokens(to: "ann@example.org").count == 5)
        }
    }

    @Test func aChangedPasswordCancelsPendingResetTokens() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            #expect(try await client.send(.put, "/v1/me/password", json: [
                "currentPassword": "correct horse", "newPassword": "battery staple",
            ], token: token).status == .noContent)
            let stale = try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "another one"])
            #expect(stale.status == .notFound && stale.code == "invalid_reset_token")
        }
    }
}
