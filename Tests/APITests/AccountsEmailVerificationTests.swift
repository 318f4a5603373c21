import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// E-mail verification over HTTP (SPEC Accounts): a token to the outbox at registration, at an
/// e-mail change and on request; redeemed by its account's owner, signed in.
@Suite("Accounts: e-mail verification", .timeLimit(.minutes(3)))
struct AccountsEmailVerificationTests {
    @Test func registrationMailsATokenThatVerifiesTheEmail() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            #expect(try await client.me(ann).json["emailVerified"] as? Bool == false)
            let tokens = try server.runtime.verificationTokens(to: "ann@example.org")
            #expect(tokens.count == 1)
            let token = try #require(tokens.first)
            #expect(try await client.send(.post, "/v1/email-verifications/\(token)").status == .unauthorized, "signed in only")
            let verified = try await client.send(.post, "/v1/email-verifications/\(token)", token: ann)
            #expect(verified.status == .noContent, "\(verified.text)")
            #expect(try await client.me(ann).json["emailVerified"] as? Bool == true)
            #expect(try server.runtime.verificationTokens(to: "ann@example.org").isEmpty, "a spent link leaves the outbox")
            let again = try await client.send(.post, "/v1/email-verifications/\(token)", token: ann)
            #expect(again.status == .notFound && again.code == "invalid_verification_token" && again.isProblem)
            // Verified: asking again mails nothing.
            #expect(try await client.send(.post, "/v1/me/email-verification", token: ann).status == .accepted)
            #expect(try server.runtime.verificationTokens(to: "ann@example.org").isEmpty)
        }
    }

    @Test func anotherAccountsTokenAMadeUpOneAndOneForAnEmailGivenUpAreRefused() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (_, bob) = try await client.register("bob@example.org", displayName: "Bob")
            let annsLink = try #require(try server.runtime.verificationTokens(to: "ann@example.org").first)
            #expect(try await client.send(.post, "/v1/email-verifications/\(annsLink)", token: bob).code == "invalid_verification_token")
            for token in ["nonsense", String(repeating: "a", count: 43)] {
                #expect(try await client.send(.post, "/v1/email-verifications/\(token)", token: ann).code == "invalid_verification_token")
            }
            // Ann moves to a new address: the old link is refused as sent elsewhere, the new one works.
            let moved = try await client.send(.patch, "/v1/me", json: ["email": "ann@elsewhere.org"], token: ann)
            #expect(moved.status == .ok && moved.json["emailVerified"] as? Bool == false)
            let stale = try await client.send(.post, "/v1/email-verifications/\(annsLink)", token: ann)
            #expect(stale.status == .conflict && stale.code == "email_changed", "\(stale.text)")
            let newLink = try #require(try server.runtime.verificationTokens(to: "ann@elsewhere.org").first)
            #expect(try await client.send(.post, "/v1/email-verifications/\(newLink)", token: ann).status == .noContent)
            #expect(try await client.me(ann).json["emailVerified"] as? Bool == true)
            #expect(try await client.me(bob).json["emailVerified"] as? Bool == false)
        }
    }

    @Test func aMailCanBeAskedForAgainAFewTimesAnHour() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            for _ in 0..<5 {
                #expect(try await client.send(.post, "/v1/me/email-verification", token: ann).status == .accepted)
            }
            let limited = try await client.send(.post, "/v1/me/email-verification", token: ann)
            #expect(limited.status == .tooManyRequests && limited.code == "too_many_attempts" && limited.headers[.retryAfter] != nil)
            let links = try server.runtime.verificationTokens(to: "ann@example.org")
            #expect(links.count == 6, "registration's and five more")
            #expect(try await client.send(.post, "/v1/email-verifications/\(try #require(links.last))", token: ann).status == .noContent,
                    "any unexpired link works")
        }
    }
}
