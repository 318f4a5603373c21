@testable import Accounts
import EventSourcing
import Testing

/// E-mail verification (SPEC Accounts): a registered or changed e-mail is unverified until its
/// owner redeems the token mailed to it; only the token of the account's current e-mail works.
@Suite("E-mail verification")
struct EmailVerificationTests {
    private let metadata = Fixtures.metadata
    typealias D = AccountDecider

    @Test func registrationMailsATokenForTheNormalisedEmail() throws {
        var register = Fixtures.register(email: " Cat@Example.ORG ")
        register.verification = Fixtures.mailed("1")
        let events = try D.given([]).when(.register(register), metadata).get()
        #expect(events.count == 2)
        #expect(events.last == .emailVerificationRequested(.init(
            userId: "cat", tokenHash: Fixtures.token("1"), sealedToken: Fixtures.sealed, expiresAt: Fixtures.hourLater,
            email: "cat@example.org")))
        #expect(D.fold(events).accounts["cat"]?.isEmailVerified == false)
    }

    @Test func theTokenVerifiesTheCurrentEmail() throws {
        let history = [Fixtures.annRegistered, Fixtures.verificationRequested("1")]
        let verify = AccountCommand.verifyEmail(.init(userId: "ann", tokenHash: Fixtures.token("1")))
        let events = try D.given(history).when(verify, metadata).get()
        #expect(events == [.emailVerified(.init(userId: "ann", email: "ann@example.org"))])
        let state = D.fold(history + events)
        #expect(state.accounts["ann"]?.isEmailVerified == true)
        // Spent: the same token, or another mailed before, verifies nothing more.
        #expect(D.given(history + events).when(verify, metadata).failure == .invalidVerificationToken)
    }

    @Test func unknownExpiredOrOtherAccountsTokensAreOneRefusal() {
        let history = [Fixtures.annRegistered, Fixtures.bobRegistered, Fixtures.verificationRequested("1"),
                       Fixtures.verificationRequested("2", expiresAt: Fixtures.hourEarlier)]
        for (user, seed) in [("ann", Character("9")), ("ann", "2"), ("bob", "1"), ("zed", "1")] {
            let verify = AccountCommand.verifyEmail(.init(userId: user, tokenHash: Fixtures.token(seed)))
            let refusal = D.given(history).when(verify, metadata).failure
            #expect(refusal == .invalidVerificationToken && refusal?.kind == .notFound, "\(user) \(seed)")
        }
    }

    @Test func aTokenMailedToAnEmailGivenUpSinceIsAConflict() throws {
        let changed = AccountEvent.emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@elsewhere.org"))
        let history = [Fixtures.annRegistered, Fixtures.verificationRequested("1"), changed]
        let refusal = D.given(history).when(.verifyEmail(.init(userId: "ann", tokenHash: Fixtures.token("1"))), metadata).failure
        #expect(refusal == .emailChangedSinceMailed && refusal?.code == "email_changed" && refusal?.kind == .conflict)
    }

    @Test func anEmailChangeMakesTheAccountUnverifiedAndMailsTheNewAddress() throws {
        let verified = [Fixtures.annRegistered, Fixtures.verificationRequested("1"),
                        .emailVerified(.init(userId: "ann", email: "ann@example.org"))]
        let update = AccountCommand.UpdateProfile(userId: "ann", email: "Ann@Elsewhere.org", verification: Fixtures.mailed("2"))
        let events = try D.given(verified).when(.updateProfile(update), metadata).get()
        #expect(events == [
            .emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@elsewhere.org")),
            .emailVerificationRequested(.init(
                userId: "ann", tokenHash: Fixtures.token("2"), sealedToken: Fixtures.sealed, expiresAt: Fixtures.hourLater,
                email: "ann@elsewhere.org")),
        ])
        #expect(D.fold(verified + events).accounts["ann"]?.isEmailVerified == false)
        // No e-mail change: no mail, whatever token came along.
        let rename = AccountCommand.UpdateProfile(userId: "ann", displayName: "Annie", verification: Fixtures.mailed("3"))
        #expect(try D.given(verified).when(.updateProfile(rename), metadata).get().map(\.typeName) == ["account.profileUpdated"])
    }

    @Test func askingAgainMailsANewTokenUnlessVerified() throws {
        let ask = AccountCommand.requestEmailVerification(.init(userId: "ann", token: Fixtures.mailed("2")))
        #expect(try D.given([Fixtures.annRegistered]).when(ask, metadata).get() == [Fixtures.verificationRequested("2")])
        let verified = [Fixtures.annRegistered, Fixtures.verificationRequested("1"),
                        .emailVerified(.init(userId: "ann", email: "ann@example.org"))]
        #expect(try D.given(verified).when(ask, metadata).get() == [])
        let expired = AccountCommand.requestEmailVerification(.init(userId: "ann", token: Fixtures.mailed("3", expiresAt: Fixtures.hourEarlier)))
        #expect(D.given([Fixtures.annRegistered]).when(expired, metadata).failure?.fieldErrors.map(\.field) == ["expiresAt"])
    }

    @Test func signingOutEverywhereEndsEverySessionThatStillWorks() throws {
        let history = [Fixtures.annRegistered, Fixtures.sessionStarted("1"), Fixtures.sessionStarted("2"),
                       Fixtures.sessionStarted("3", expiresAt: Fixtures.hourEarlier)]
        let events = try D.given(history).when(.endAllSessions(.init(userId: "ann")), metadata).get()
        #expect(events == [.sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("1"))),
                           .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("2")))])
        #expect(try D.given(history + events).when(.endAllSessions(.init(userId: "ann")), metadata).get() == [])
    }
}
