import Foundation
import HummingbirdTesting
import Testing
@testable import API

@Suite("Accounts: sessions", .timeLimit(.minutes(3)))
struct AccountsSessionTests {
    @Test func loginAnswers201WithANewWorkingToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (userId, first) = try await client.register("ann@example.org")
            let reply = try await client.login("ANN@example.org", "correct horse")
            #expect(reply.status == .created)
            #expect(reply.json["userId"] as? String == userId)
            let token = try #require(reply.json["token"] as? String)
            #expect(token != first)
            #expect(reply.json["events"] as? [String] == ["account.sessionStarted"])
            #expect(try await client.me(token).status == .ok)
            #expect(try await client.me(first).status == .ok, "other sessions stay")
        }
    }

    @Test func aWrongPasswordAndAnUnknownEmailAnswerTheSame() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let wrongPassword = try await client.login("ann@example.org", "wrong password")
            let unknownEmail = try await client.login("nobody@example.org", "correct horse")
            #expect(wrongPassword.status == .unauthorized && wrongPassword.code == "invalid_credentials" && wrongPassword.isProblem)
            #expect(wrongPassword.body == unknownEmail.body)
            #expect(wrongPassword.status == unknownEmail.status)
            #expect(wrongPassword.headers[.wwwAuthenticate] == unknownEmail.headers[.wwwAuthenticate])
        }
    }

    @Test func tenFailuresForAnEmailFromAnAddressHoldItBackThereFor15Minutes() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for _ in 1...10 {
                #expect(try await client.login("ann@example.org", "wrong password").status == .unauthorized)
                clock.advance(by: 10)
            }
            // Even the right password waits now, from this address.
            let locked = try await client.login("ann@example.org", "correct horse")
            #expect(locked.status == .tooManyRequests && locked.code == "too_many_attempts" && locked.isProblem)
            let retryAfter = try #require(locked.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter == 15 * 60 - 100, "until the first failure is 15 minutes old")

            clock.advance(by: TimeInterval(retryAfter))
            #expect(try await client.login("ann@example.org", "correct horse").status == .created)
        }
    }

    @Test func tenFailuresFromOneAddressLockItForEveryEmail() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for attempt in 1...10 {
                #expect(try await client.login("guess\(attempt)@example.org", "password1").status == .unauthorized)
            }
            let locked = try await client.login("ann@example.org", "correct horse")
            #expect(locked.status == .tooManyRequests && locked.headers[.retryAfter] != nil)
        }
    }

    @Test func aRetriedLoginAnswersTheSameToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let key = UUID().uuidString
            let first = try await client.login("ann@example.org", "correct horse", key: key)
            let retry = try await client.login("ann@example.org", "correct horse", key: key)
            #expect(first.status == .created && retry.status == .created)
            #expect(first.json["token"] as? String == retry.json["token"] as? String)
            #expect(first.json["expiresAt"] as? String == retry.json["expiresAt"] as? String)
        }
    }

    /// A retry must not hand out a token that no longer works: 409 `session_ended` instead.
    @Test func aLoginRetriedAfterLogoutIsRefusedNotAnsweredWithTheEndedToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let key = UUID().uuidString
            let first = try await client.login("ann@example.org", "correct horse", key: key)
            let token = try #require(first.json["token"] as? String)
            #expect(try await client.send(.delete, "/v1/sessions/current", token: token).status == .noContent)

            let head = try server.runtime.log.lmdb.headPosition()
            let retry = try await client.login("ann@example.org", "correct horse", key: key)
            #expect(retry.status == .conflict && retry.code == "session_ended" && retry.isProblem, "\(retry.text)")
            #expect(retry.json["token"] == nil && !retry.text.contains(token))
            #expect(try server.runtime.log.lmdb.headPosition() == head, "the refusal records nothing")
            #expect(try await client.me(token).status == .unauthorized)
            // The retry still checks the password first: it reveals nothing to a guesser.
            #expect(try await client.login("ann@example.org", "wrong password", key: key).status == .unauthorized)
            // A new key is a new login.
            let fresh = try await client.login("ann@example.org", "correct horse", key: UUID().uuidString)
            #expect(try await client.me(try #require(fresh.json["token"] as? String)).status == .ok)
        }
    }

    @Test func aRegistrationRetriedAfterLogoutIsRefusedNotAnsweredWithTheEndedToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let key = UUID().uuidString
            let (_, token) = try await client.register("ann@example.org", key: key)
            #expect(try await client.send(.delete, "/v1/sessions/current", token: token).status == .noContent)
            let retry = try await client.send(.post, "/v1/accounts", json: [
                "email": "ann@example.org", "password": "correct horse", "displayName": "Ann",
            ], key: key)
            #expect(retry.status == .conflict && retry.code == "session_ended", "\(retry.text)")
            #expect(try await client.login("ann@example.org", "correct horse").status == .created, "the account stays")
        }
    }

    @Test func aLoginRetriedAfterItsSessionExpiredOrWasEndedByAResetIsRefused() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let expiring = UUID().uuidString
            #expect(try await client.login("ann@example.org", "correct horse", key: expiring).status == .created)
            clock.advance(by: 30 * 24 * 3600)
            #expect(try await client.login("ann@example.org", "correct horse", key: expiring).code == "session_ended")

            let reset = UUID().uuidString
            let ended = try #require(try await client.login("ann@example.org", "correct horse", key: reset).json["token"] as? String)
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            #expect(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "battery staple"]).status == .noContent)
            // The same request again: its password is no longer hers.
            let sameRequest = try await client.login("ann@example.org", "correct horse", key: reset)
            #expect(sameRequest.status == .unauthorized && sameRequest.code == "invalid_credentials", "\(sameRequest.text)")
            // The new password under the old key is another request.
            let otherRequest = try await client.login("ann@example.org", "battery staple", key: reset)
            #expect(otherRequest.status == .unprocessableContent && otherRequest.code == "idempotency_key_reused", "\(otherRequest.text)")
            #expect(!sameRequest.text.contains(ended) && !otherRequest.text.contains(ended))
        }
    }

    /// No e-mail, a blank one, or one no account can have: the generic wrong pair, never a 500.
    @Test func anEmptyBlankOrImpossibleEmailIsAWrongPair() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let reference = try await client.login("nobody@example.org", "correct horse")
            for email in ["", "   ", "\t\n", String(repeating: "a", count: 600) + "@example.org", "ann\u{0}@example.org", "@", "ann"] {
                let reply = try await client.login(email, "correct horse")
                #expect(reply.status == .unauthorized && reply.code == "invalid_credentials" && reply.isProblem, "\(email.prefix(20)): \(reply.text)")
                #expect(reply.body == reference.body)
            }
            let noPassword = try await client.login("ann@example.org", "")
            #expect(noPassword.status == .unauthorized && noPassword.code == "invalid_credentials")
        }
    }

    @Test func logoutRevokesTheTokenAndOnlyIt() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let other = try #require(try await client.login("ann@example.org", "correct horse").json["token"] as? String)
            let key = UUID().uuidString
            let logout = try await client.send(.delete, "/v1/sessions/current", token: token, key: key)
            #expect(logout.status == .noContent && logout.body.isEmpty)

            let after = try await client.me(token)
            #expect(after.status == .unauthorized && after.code == "unauthorized")
            #expect(after.headers[.wwwAuthenticate] == "Bearer realm=\"logbook\", error=\"invalid_token\"")
            let again = try await client.send(.delete, "/v1/sessions/current", token: token)
            #expect(again.status == .unauthorized)
            // A retry of the logout that worked answers as the first did.
            #expect(try await client.send(.delete, "/v1/sessions/current", token: token, key: key).status == .noContent)
            #expect(try await client.me(other).status == .ok)
        }
    }

    @Test func aSessionExpiresAfter30Days() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            clock.advance(by: 30 * 24 * 3600 - 1)
            #expect(try await client.me(token).status == .ok)
            clock.advance(by: 1)
            let expired = try await client.me(token)
            #expect(expired.status == .unauthorized && expired.code == "unauthorized")
            #expect(try await client.send(.delete, "/v1/sessions/current", token: token).status == .unauthorized)
        }
    }

    @Test func aMissingOrMadeUpTokenIs401WithAChallenge() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let none = try await client.send(.get, "/v1/me")
            #expect(none.status == .unauthorized && none.code == "unauthorized" && none.isProblem)
            #expect(none.headers[.wwwAuthenticate] == "Bearer realm=\"logbook\"")
            for token in ["nonsense", AuthTokens.random()] {
                let reply = try await client.me(token)
                #expect(reply.status == .unauthorized && reply.code == "unauthorized")
                #expect(reply.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
            }
            let basic = try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: "Basic YTpi"])
            #expect(basic.status == .unauthorized)
        }
    }
}
