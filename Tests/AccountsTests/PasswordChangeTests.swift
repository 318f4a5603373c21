@testable import Accounts
import EventSourcing
import Testing

@Suite("Change password")
struct PasswordChangeTests {
    private let metadata = Fixtures.metadata

    @Test func changesTheHash() throws {
        let command = AccountCommand.ChangePassword(userId: "ann", newPasswordHash: Fixtures.hash("n"), newPasswordLength: 9)
        let events = try AccountDecider.given([Fixtures.annRegistered]).when(.changePassword(command), metadata).get()
        #expect(events == [.passwordChanged(.init(userId: "ann", passwordHash: Fixtures.hash("n")))])
        #expect(events[0].tags == ["user:ann"])
    }

    @Test func shortPasswordIsRefused() {
        let command = AccountCommand.ChangePassword(userId: "ann", newPasswordHash: Fixtures.hash("n"), newPasswordLength: 7)
        #expect(throws: AccountError.validationFailed([FieldError("newPassword", "must be at least 8 characters")])) {
            try AccountDecider.given([Fixtures.annRegistered]).when(.changePassword(command), metadata).get()
        }
    }

    @Test func unknownAccountIsNotFound() {
        let command = AccountCommand.ChangePassword(userId: "zed", newPasswordHash: Fixtures.hash("n"), newPasswordLength: 9)
        #expect(throws: AccountError.accountNotFound) {
            try AccountDecider.given([Fixtures.annRegistered]).when(.changePassword(command), metadata).get()
        }
    }

    @Test func endsEveryOtherSessionThatStillWorksAndKeepsTheOneAsking() throws {
        // Sessions 1 and 2 work, 3 ended, 4 expired; 1 asks for the change.
        let history = [
            Fixtures.annRegistered, Fixtures.sessionStarted("1"), Fixtures.sessionStarted("2"), Fixtures.sessionStarted("3"),
            .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("3"))), Fixtures.sessionStarted("4", expiresAt: Fixtures.hourEarlier),
        ]
        let command = AccountCommand.ChangePassword(
            userId: "ann", newPasswordHash: Fixtures.hash("n"), newPasswordLength: 9, keepingSession: Fixtures.token("1"))
        let events = try AccountDecider.given(history).when(.changePassword(command), metadata).get()
        #expect(events == [
            .passwordChanged(.init(userId: "ann", passwordHash: Fixtures.hash("n"))),
            .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("2"))),
        ])
        // Kept by none: every working session ends.
        let all = AccountCommand.ChangePassword(userId: "ann", newPasswordHash: Fixtures.hash("n"), newPasswordLength: 9)
        #expect(try AccountDecider.given(history).when(.changePassword(all), metadata).get().count == 3)
    }

    @Test func cancelsPendingResetTokens() {
        let changed = AccountEvent.passwordChanged(.init(userId: "ann", passwordHash: Fixtures.hash("n")))
        let redeem = AccountCommand.RedeemPasswordReset(userId: "ann", tokenHash: Fixtures.token("1"), newPasswordHash: Fixtures.hash("m"), newPasswordLength: 9)
        #expect(throws: AccountError.invalidResetToken) {
            try AccountDecider.given([Fixtures.annRegistered, Fixtures.resetRequested("1"), changed]).when(.redeemPasswordReset(redeem), metadata).get()
        }
    }
}
