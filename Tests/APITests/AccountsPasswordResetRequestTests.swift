import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// SPEC §1 Accounts: a reset request always answers 202 and tells nothing; the route only
/// queues it, and the worker puts the token in the outbox afterwards.
@Suite("Accounts: password reset requests", .timeLimit(.minutes(3)))
struct AccountsPasswordResetRequestTests {
    /// With no worker running (no application), a request still returns at once: the route
    /// does not wait for the account lookup or the token. The next worker carries it out.
    @Test func aRequestIsTakenBeforeItsWorkAndCarriedOutAfterwards() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in _ = try await client.register("ann@example.org") }
        let head = try server.runtime.log.lmdb.headPosition()
        let service = AccountsService(runtime: server.runtime)
        try RequestInfo.$current.withValue(RequestInfo(bearerToken: nil, idempotencyKey: nil, remoteAddress: nil)) {
            try service.requestPasswordReset(email: "Ann@Example.org ")
        }
        #expect(!server.runtime.auth.passwordResets.isIdle, "queued, not done")
        #expect(try server.runtime.log.lmdb.headPosition() == head)

        try await server.test { client in
            let token = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            #expect(try await client.send(.post, "/v1/password-resets/\(token)", json: ["newPassword": "battery staple"]).status == .noContent)
        }
    }

    /// No e-mail, a blank one, or one no account can have: 202 like any other, nothing
    /// recorded, and no failure in the background either.
    @Test func emptyBlankOrImpossibleEmailsAreAcceptedAndDoNothing() async throws {
        let capture = LogCapture()
        let server = try TestServer()
        defer { server.remove() }
        try await server.test(logger: capture.logger()) { client in
            _ = try await client.register("ann@example.org")
            let head = try server.runtime.log.lmdb.headPosition()
            let emails = ["", "   ", "\n", String(repeating: "a", count: 5_000) + "@example.org", "ann\u{0}@example.org", "@", "ann"]
            for email in emails {
                let reply = try await client.send(.post, "/v1/password-resets", json: ["email": email])
                #expect(reply.status == .accepted && reply.body.isEmpty, "\(email.prefix(20)): \(reply.text)")
            }
            try await server.awaitPasswordResets()
            #expect(try server.runtime.log.lmdb.headPosition() == head)
        }
        #expect(!capture.all.contains { $0.contains("password reset request failed") }, "\(capture.all)")
    }

    /// The Idempotency-Key is checked for every e-mail alike; a malformed one must not be
    /// refused only when the e-mail has an account.
    @Test func aMalformedIdempotencyKeyIsRefusedAlikeForEveryEmail() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let known = try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"], key: "not-a-uuid")
            let unknown = try await client.send(.post, "/v1/password-resets", json: ["email": "nobody@example.org"], key: "not-a-uuid")
            #expect(known.status == .badRequest && known.code == "invalid_idempotency_key")
            #expect(known.body == unknown.body && known.status == unknown.status)
            #expect(try await server.outboxTokens(to: "ann@example.org").isEmpty)
        }
    }

    @Test func aRetriedRequestMintsOneToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let key = UUID().uuidString
            for _ in 1...3 {
                #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"], key: key).status == .accepted)
            }
            #expect(try await server.outboxTokens(to: "ann@example.org").count == 1)
        }
    }
}
