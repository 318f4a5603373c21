@testable import Accounts
import EventSourcing
import Foundation
import Testing

@Suite("Password reset")
struct PasswordResetTests {
    private let metadata = Fixtures.metadata

    private func redeem(_ seed: Character, userId: String = "ann", length: Int = 10) -> AccountCommand {
        .redeemPasswordReset(.init(userId: userId, tokenHash: Fixtures.token(seed), newPasswordHash: Fixtures.hash("r"), newPasswordLength: length))
    }

    @Test func requestCarriesTheSealedTokenAndCurrentEmail() throws {
        let moved = AccountEvent.emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@new.example"))
        let command = AccountCommand.RequestPasswordReset(userId: "ann", tokenHash: Fixtures.token("1"), sealedToken: Fixtures.sealed, expiresAt: Fixtures.hourLater)
        let events = try AccountDecider.given([Fixtures.annRegistered, moved]).when(.requestPasswordReset(command), metadata).get()
        #expect(events == [.passwordResetRequested(.init(
            userId: "ann", tokenHash: Fixtures.token("1"), sealedToken: Fixtures.sealed, expiresAt: Fixtures.hourLater, email: "ann@new.example"
        ))])
        #expect(events[0].tags == ["user:ann"])
    }

    @Test func requestRefusals() {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.resetRequested("1")])
        func request(_ userId: String, _ seed: Character, _ expiresAt: Date) -> AccountCommand {
            .requestPasswordReset(.init(userId: userId, tokenHash: Fixtures.token(seed), sealedToken: Fixtures.sealed, expiresAt: expiresAt))
        }
        #expect(throws: AccountError.accountNotFound) { try given.when(request("zed", "2", Fixtures.hourLater), metadata).get() }
        #expect(throws: AccountError.tokenInUse) { try given.when(request("ann", "1", Fixtures.hourLater), metadata).get() }
        #expect(throws: AccountError.validationFailed([FieldError("expiresAt", "must be after now")])) {
            try given.when(request("ann", "2", Fixtures.hourEarlier), metadata).get()
        }
    }

    @Test func redeemSetsThePasswordAndEndsEveryActiveSession() throws {
        let ended = AccountEvent.sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("b")))
        let given = AccountDecider.given([
            Fixtures.annRegistered,
            Fixtures.sessionStarted("c"), Fixtures.sessionStarted("a"), Fixtures.sessionStarted("b"), ended,
            Fixtures.sessionStarted("d", expiresAt: Fixtures.hourEarlier),
            Fixtures.resetRequested("1"),
        ])
        let events = try given.when(redeem("1"), metadata).get()
        #expect(events == [
            .passwordResetRedeemed(.init(userId: "ann", tokenHash: Fixtures.token("1"))),
            .passwordChanged(.init(userId: "ann", passwordHash: Fixtures.hash("r"))),
            .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("a"))),
            .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("c"))),
        ], "active sessions in hash order; ended and expired ones are left alone")
        #expect(AccountDecider.fold(events, from: given.state).accounts["ann"]?.activeSessions(at: Fixtures.now) == [])
    }

    @Test func expiredTokenIsInvalid() {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.resetRequested("1", expiresAt: Fixtures.now)])
        #expect(throws: AccountError.invalidResetToken) { try given.when(redeem("1"), metadata).get() }
    }

    @Test func wrongTokenIsInvalid() {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.bobRegistered, Fixtures.resetRequested("1")])
        #expect(throws: AccountError.invalidResetToken) { try given.when(redeem("2"), metadata).get() }
        #expect(throws: AccountError.invalidResetToken, "another account's token") { try given.when(redeem("1", userId: "bob"), metadata).get() }
        #expect(throws: AccountError.invalidResetToken, "no such account") { try given.when(redeem("1", userId: "zed"), metadata).get() }
    }

    @Test func reusedTokenIsInvalidAndSoAreItsSiblings() throws {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.resetRequested("1"), Fixtures.resetRequested("2")])
        let events = try given.when(redeem("1"), metadata).get()
        let after = AccountDecider.fold(events, from: given.state)
        #expect(throws: AccountError.invalidResetToken) { try AccountDecider.decide(redeem("1"), state: after, metadata: metadata) }
        #expect(throws: AccountError.invalidResetToken) { try AccountDecider.decide(redeem("2"), state: after, metadata: metadata) }
    }

    @Test func shortNewPasswordIsRefusedAfterTheTokenCheck() {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.resetRequested("1")])
        #expect(throws: AccountError.validationFailed([FieldError("newPassword", "must be at least 8 characters")])) {
            try given.when(redeem("1", length: 5), metadata).get()
        }
        #expect(throws: AccountError.invalidResetToken) { try given.when(redeem("2", length: 5), metadata).get() }
    }

    @Test func invalidTokenIsNotFoundKind() {
        #expect(AccountError.invalidResetToken.code == "invalid_reset_token")
        #expect(AccountError.invalidResetToken.kind == .notFound)
    }
}
