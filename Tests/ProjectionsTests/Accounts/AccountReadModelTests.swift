import Accounts
import EventLog
import Foundation
import Testing
@testable import Projections

@Suite("Accounts read models", .timeLimit(.minutes(3)))
struct AccountReadModelTests {
    @Test func credentialsFollowTheEmailAndThePassword() async throws {
        let fixture = try await AccountsFixture()
        defer { fixture.close() }
        try await fixture.register("ann", email: "Ann@Example.org")
        #expect(try fixture.queries.credentials(email: "ann@example.org")?.userId == "ann")
        try await fixture.run(.updateProfile(.init(userId: "ann", email: "new@example.org")))
        try await fixture.run(.changePassword(.init(userId: "ann", newPasswordHash: Secrets.hash("b"), newPasswordLength: 12)))
        #expect(try fixture.queries.credentials(email: "ann@example.org") == nil)
        let moved = try #require(try fixture.queries.credentials(email: "new@example.org"))
        #expect(moved == AccountCredentials(userId: "ann", email: "new@example.org", passwordHash: Secrets.hash("b")))
        #expect(try fixture.queries.credentials(userId: "ann") == moved)
        // The released e-mail can be someone else's now.
        try await fixture.register("bob", email: "ann@example.org")
        #expect(try fixture.queries.credentials(email: "ann@example.org")?.userId == "bob")
        #expect(try fixture.queries.credentials(email: "new@example.org")?.userId == "ann")
    }

    @Test func profilesFollowEveryChange() async throws {
        let fixture = try await AccountsFixture()
        defer { fixture.close() }
        try await fixture.register("ann", email: "ann@example.org")
        try await fixture.run(.updateProfile(.init(userId: "ann", displayName: "Annie", firstName: "Ann", username: "annie", postcode: "1234 ab")))
        try await fixture.run(.updateProfile(.init(userId: "ann", firstName: "", email: "annie@example.org")))
        let profile = try #require(try fixture.queries.profile("ann"))
        #expect(profile == AccountProfile(
            userId: "ann", email: "annie@example.org", displayName: "Annie", firstName: nil, lastName: nil,
            username: "annie", postcode: "1234AB", avatarBlobId: nil))
        #expect(try fixture.queries.profile("nobody") == nil)
    }

    @Test func sessionsAreMarkedEndedNotForgotten() async throws {
        let fixture = try await AccountsFixture()
        defer { fixture.close() }
        try await fixture.register("ann", email: "ann@example.org")
        let expiresAt = AccountsFixture.start.addingTimeInterval(3600)
        try await fixture.run(.startSession(.init(userId: "ann", tokenHash: Secrets.token("1"), expiresAt: expiresAt)))
        try await fixture.run(.startSession(.init(userId: "ann", tokenHash: Secrets.token("2"), expiresAt: expiresAt)))
        try await fixture.run(.endSession(.init(userId: "ann", tokenHash: Secrets.token("1"))))
        #expect(try fixture.queries.session(Secrets.token("1")) == AccountSession(userId: "ann", expiresAt: expiresAt, ended: true))
        let active = try #require(try fixture.queries.session(Secrets.token("2")))
        #expect(active.isActive(at: AccountsFixture.start) && !active.isActive(at: expiresAt))
        #expect(try fixture.queries.session(Secrets.token("3")) == nil)
    }

    @Test func resetTokensAndTheOutboxFollowRequestsRedemptionsAndPasswordChanges() async throws {
        let fixture = try await AccountsFixture()
        defer { fixture.close() }
        try await fixture.register("ann", email: "ann@example.org")
        try await fixture.register("bob", email: "bob@example.org")
        let expiresAt = AccountsFixture.start.addingTimeInterval(3600)
        for (user, token) in [("ann", Character("1")), ("bob", "2"), ("ann", "3")] {
            try await fixture.run(.requestPasswordReset(.init(
                userId: user, tokenHash: Secrets.token(token), sealedToken: Secrets.sealed, expiresAt: expiresAt)))
        }
        #expect(try fixture.queries.outboxMails(limit: 10).map(\.to) == ["ann@example.org", "bob@example.org", "ann@example.org"])
        #expect(try fixture.queries.outboxMails(limit: 2).count == 2)
        #expect(try fixture.queries.outboxMails(limit: 10, now: expiresAt).isEmpty, "expired links are not mailed")

        try await fixture.run(.redeemPasswordReset(.init(userId: "ann", tokenHash: Secrets.token("3"), newPasswordHash: Secrets.hash("c"), newPasswordLength: 12)))
        #expect(try fixture.queries.passwordReset(Secrets.token("1"))?.used == true, "every pending token of the account dies")
        #expect(try fixture.queries.passwordReset(Secrets.token("3"))?.used == true)
        #expect(try fixture.queries.passwordReset(Secrets.token("2"))?.isRedeemable(at: AccountsFixture.start) == true)
        #expect(try fixture.queries.outboxMails(limit: 10).map(\.userId) == ["bob"])

        try await fixture.run(.changePassword(.init(userId: "bob", newPasswordHash: Secrets.hash("d"), newPasswordLength: 12)))
        #expect(try fixture.queries.passwordReset(Secrets.token("2"))?.used == true)
        #expect(try fixture.queries.outboxMails(limit: 10).isEmpty)
    }

    @Test func activityListsEachActorsEventsOfEveryDomainNewestFirst() async throws {
        let fixture = try await AccountsFixture()
        defer { fixture.close() }
        try await fixture.register("ann", email: "ann@example.org")
        try await fixture.register("bob", email: "bob@example.org")
        let foreign = try await fixture.appendForeignEvent(by: "ann")
        try await fixture.appendForeignEvent(by: "system")
        let page = try await fixture.queries.activity(of: "ann", limit: 10, cursor: nil)
        #expect(page.items.map(\.type) == ["elsewhere.somethingHappened", "account.registered"])
        #expect(page.items.map(\.entity) == ["elsewhere-1", "account-ann"])
        #expect(page.items.first?.position == foreign && page.next == nil)
        #expect(try await fixture.queries.activity(of: "system", limit: 10, cursor: nil).items.isEmpty)

        let first = try await fixture.queries.activity(of: "ann", limit: 1, cursor: nil)
        let second = try await fixture.queries.activity(of: "ann", limit: 1, cursor: first.next)
        #expect(first.items + second.items == page.items && second.next == nil)
        await #expect(throws: ListQueryError.malformedCursor) {
            try await fixture.queries.activity(of: "bob", limit: 1, cursor: first.next)
        }
        await #expect(throws: ListQueryError.limitOutOfRange(0, allowed: 1...500)) {
            try await fixture.queries.activity(of: "ann", limit: 0, cursor: nil)
        }
    }

    @Test func aRebuildMakesTheSameReadModels() async throws {
        let fixture = try await AccountsFixture()
        defer { fixture.close() }
        try await fixture.register("ann", email: "ann@example.org")
        try await fixture.run(.updateProfile(.init(userId: "ann", username: "annie", email: "annie@example.org")))
        try await fixture.run(.startSession(.init(userId: "ann", tokenHash: Secrets.token("1"), expiresAt: AccountsFixture.start.addingTimeInterval(60))))
        try await fixture.run(.requestPasswordReset(.init(
            userId: "ann", tokenHash: Secrets.token("2"), sealedToken: Secrets.sealed, expiresAt: AccountsFixture.start.addingTimeInterval(60))))
        func snapshot() async throws -> String {
            let q = fixture.queries
            let activity = try await q.activity(of: "ann", limit: 10, cursor: nil)
            return "\(try q.credentials(userId: "ann")!) \(try q.profile("ann")!) \(try q.session(Secrets.token("1"))!) "
                + "\(try q.passwordReset(Secrets.token("2"))!) \(try q.outboxMails(limit: 10)) \(activity)"
        }
        let before = try await snapshot()
        for projection in AccountProjections.all { try await fixture.engine.rebuild(projection.name) }
        #expect(try await snapshot() == before)
    }
}
