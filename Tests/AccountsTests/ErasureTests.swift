@testable import Accounts
import EventSourcing
import Foundation
import Testing

@Suite("Account erasure")
struct ErasureTests {
    private let metadata = Fixtures.metadata
    private let erase = AccountCommand.erase(.init(userId: "ann"))

    @Test func erasureEndsEveryWorkingSessionAndReleasesTheClaims() throws {
        let given = AccountDecider.given([
            Fixtures.annRegistered, Fixtures.sessionStarted("b"), Fixtures.sessionStarted("a"),
            Fixtures.sessionStarted("c", expiresAt: Fixtures.now.addingTimeInterval(1)),
            .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("c"))),
            Fixtures.sessionStarted("d", expiresAt: Fixtures.hourEarlier.addingTimeInterval(1)),
            Fixtures.sessionStarted("9", for: "bob"),
        ])
        let events = try given.when(erase, metadata).get()
        // Ended and expired sessions need no event; bob's is not ann's.
        #expect(events == [
            .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("a"))),
            .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("b"))),
            .erased(.init(userId: "ann", releasedTags: ["email:ann@example.org", "username:annb"])),
        ])
        #expect(events.last?.tags == ["user:ann", "email:ann@example.org", "username:annb"])
        #expect(events.last?.typeName == "account.erased")
    }

    /// The keys of other subjects (invitations to the account's address) go with the account on
    /// every server: the event names them.
    @Test func theErasureNamesTheOtherSubjectsWhoseKeysGoWithIt() throws {
        let command = AccountCommand.erase(.init(userId: "ann", alsoErasing: ["invitee_0f3a"]))
        let events = try AccountDecider.given([Fixtures.annRegistered]).when(command, metadata).get()
        guard case .erased(let erased)? = events.last else {
            Issue.record("expected an erasure, got \(events)")
            return
        }
        #expect(erased.erasedSubjects == ["invitee_0f3a"] && erased.subjects == ["ann", "invitee_0f3a"])
        // An erasure written before the field existed reads as the account alone.
        let old = try AccountEvent.decode(
            typeName: "account.erased", schemaVersion: 1, data: Data(#"{"releasedTags":[],"userId":"ann"}"#.utf8))
        #expect(old == .erased(.init(userId: "ann", releasedTags: [])))
        if case .erased(let payload) = old { #expect(payload.subjects == ["ann"]) }
    }

    @Test func theEmailAndUsernameMayBeClaimedAgainAfterErasure() throws {
        let register = AccountCommand.register(Fixtures.register("cat", email: "ANN@example.org", username: "annb"))
        #expect(throws: AccountError.emailTaken) { try AccountDecider.given([Fixtures.annRegistered]).when(register, metadata).get() }
        let erased = AccountEvent.erased(.init(userId: "ann", releasedTags: ["email:ann@example.org", "username:annb"]))
        let events = try AccountDecider.given([Fixtures.annRegistered, erased]).when(register, metadata).get()
        guard case .registered(let registered)? = events.first else {
            Issue.record("expected a registration, got \(events)")
            return
        }
        #expect(registered.email == "ann@example.org" && registered.userId == "cat")
    }

    @Test func anErasedOrUnknownAccountIsNotFoundForEveryCommand() {
        let erased = AccountEvent.erased(.init(userId: "ann", releasedTags: ["email:ann@example.org"]))
        let given = AccountDecider.given([Fixtures.annRegistered, erased])
        #expect(throws: AccountError.accountNotFound) { try given.when(erase, metadata).get() }
        #expect(throws: AccountError.accountNotFound) { try AccountDecider.given([]).when(erase, metadata).get() }
        let login = AccountCommand.startSession(.init(userId: "ann", tokenHash: Fixtures.token("1"), expiresAt: Fixtures.hourLater))
        #expect(throws: AccountError.accountNotFound) { try given.when(login, metadata).get() }
        let update = AccountCommand.updateProfile(.init(userId: "ann", displayName: "Ghost"))
        #expect(throws: AccountError.accountNotFound) { try given.when(update, metadata).get() }
    }

    @Test func anErasureReadsOnlyTheAccount() {
        #expect(AccountDecider.boundary(of: erase).items == [.init(types: AccountEvent.typeNames, tags: ["user:ann"])])
    }
}
