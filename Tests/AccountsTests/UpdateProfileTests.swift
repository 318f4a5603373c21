@testable import Accounts
import EventSourcing
import Testing

@Suite("Update profile")
struct UpdateProfileTests {
    private let metadata = Fixtures.metadata
    private let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.bobRegistered])

    @Test func nothingChangedIsNoEvents() throws {
        let same = AccountCommand.UpdateProfile(
            userId: "ann", displayName: " Ann", firstName: "Ann", lastName: "Bee", username: "AnnB",
            postcode: "1234 ab", email: "ANN@example.org"
        )
        #expect(try given.when(.updateProfile(same), metadata).get().isEmpty)
        #expect(try given.when(.updateProfile(.init(userId: "ann")), metadata).get().isEmpty)
    }

    @Test func profileFieldsComeAsOneSnapshot() throws {
        let events = try given.when(.updateProfile(.init(userId: "ann", displayName: "Annie", postcode: "")), metadata).get()
        #expect(events == [.profileUpdated(.init(userId: "ann", displayName: "Annie", firstName: "Ann", lastName: "Bee", postcode: nil))])
        #expect(events[0].tags == ["user:ann"])
    }

    @Test func emailChangeCarriesOldAndNewTags() throws {
        let events = try given.when(.updateProfile(.init(userId: "ann", email: " Ann@New.Example ")), metadata).get()
        #expect(events == [.emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@new.example"))])
        #expect(events[0].tags == ["user:ann", "email:ann@example.org", "email:ann@new.example"])
    }

    @Test func emailOfAnotherUserIsTakenIgnoringCase() {
        #expect(throws: AccountError.emailTaken) {
            try given.when(.updateProfile(.init(userId: "ann", email: "BOB@example.org")), metadata).get()
        }
    }

    @Test func usernameOfAnotherUserIsTaken() {
        #expect(throws: AccountError.usernameTaken) {
            try given.when(.updateProfile(.init(userId: "ann", username: "Bob")), metadata).get()
        }
    }

    @Test func usernameChangeCarriesOldAndNewTags() throws {
        let events = try given.when(.updateProfile(.init(userId: "ann", username: "annie")), metadata).get()
        #expect(events == [.usernameChanged(.init(userId: "ann", oldUsername: "AnnB", newUsername: "annie"))])
        #expect(events[0].tags == ["user:ann", "username:annb", "username:annie"])
    }

    @Test func firstUsernameCarriesOnlyTheNewTag() throws {
        let given = AccountDecider.given([.registered(.init(userId: "cat", email: "cat@example.org", passwordHash: Fixtures.hash("c"), displayName: "Cat"))])
        let events = try given.when(.updateProfile(.init(userId: "cat", username: "Cat")), metadata).get()
        #expect(events == [.usernameChanged(.init(userId: "cat", oldUsername: nil, newUsername: "Cat"))])
        #expect(events[0].tags == ["user:cat", "username:cat"])
    }

    /// Own username in another case: a change of display, the same claim, one tag.
    @Test func caseOnlyUsernameChangeIsItsOwn() throws {
        let events = try given.when(.updateProfile(.init(userId: "ann", username: "annb")), metadata).get()
        #expect(events == [.usernameChanged(.init(userId: "ann", oldUsername: "AnnB", newUsername: "annb"))])
        #expect(events[0].tags == ["user:ann", "username:annb"])
    }

    @Test func everythingAtOnceInAFixedOrder() throws {
        let command = AccountCommand.UpdateProfile(
            userId: "ann", displayName: "A", firstName: "", lastName: "B", username: "a.b", postcode: "9999 zz", email: "a@b.example"
        )
        let events = try given.when(.updateProfile(command), metadata).get()
        #expect(events.map(\.typeName) == ["account.emailChanged", "account.usernameChanged", "account.profileUpdated"])
        #expect(events.last == .profileUpdated(.init(userId: "ann", displayName: "A", firstName: nil, lastName: "B", postcode: "9999ZZ")))
    }

    @Test func everyBadFieldIsListedAtOnce() {
        let command = AccountCommand.UpdateProfile(userId: "ann", displayName: "", username: "", postcode: "12-34", email: "a@b")
        let result = given.when(.updateProfile(command), metadata)
        guard case .failure(let error) = result else { Issue.record("expected a refusal"); return }
        #expect(error.fieldErrors.map(\.field) == ["email", "username", "displayName", "postcode"])
    }

    @Test func unknownAccountIsNotFound() {
        #expect(throws: AccountError.accountNotFound) {
            try given.when(.updateProfile(.init(userId: "zed", displayName: "Zed")), metadata).get()
        }
    }

    @Test func stateFollowsTheEvents() throws {
        let events = try given.when(.updateProfile(.init(userId: "ann", username: "annie", email: "a@b.example")), metadata).get()
        let state = AccountDecider.fold(events, from: given.state)
        #expect(state.accounts["ann"]?.email == "a@b.example")
        #expect(state.claims["ann"] == Claims(email: "a@b.example", usernameKey: "annie"))
        #expect(!state.isEmailTaken("ann@example.org", byOtherThan: "cat"))
        #expect(!state.isUsernameTaken("AnnB", byOtherThan: "cat"))
    }
}
