@testable import Accounts
import EventSourcing
import Testing

@Suite("Register")
struct RegisterTests {
    private let metadata = Fixtures.metadata

    @Test func registersWithNormalisedFields() throws {
        let command = AccountCommand.Register(
            userId: "cat", email: "  Cat@Example.ORG ", passwordHash: Fixtures.hash("c"), passwordLength: 8,
            displayName: " Cat ", firstName: " Cathy ", lastName: "", username: " CatS ", postcode: " 1234 ab "
        )
        let events = try AccountDecider.given([]).when(.register(command), metadata).get()
        #expect(events == [.registered(.init(
            userId: "cat", email: "cat@example.org", passwordHash: Fixtures.hash("c"), displayName: "Cat",
            firstName: "Cathy", lastName: nil, username: "CatS", postcode: "1234AB"
        ))])
        #expect(events[0].streamID == "account-cat")
        #expect(events[0].tags == ["user:cat", "email:cat@example.org", "username:cats"])
    }

    @Test func withoutUsernameCarriesNoUsernameTag() throws {
        let events = try AccountDecider.given([]).when(.register(Fixtures.register()), metadata).get()
        #expect(events.map(\.tags) == [["user:cat", "email:cat@example.org"]])
    }

    @Test func emailTakenIgnoringCase() {
        let command = Fixtures.register(email: " ANN@example.org")
        #expect(throws: AccountError.emailTaken) {
            try AccountDecider.given([Fixtures.annRegistered]).when(.register(command), metadata).get()
        }
    }

    @Test func usernameTakenIgnoringCase() {
        let command = Fixtures.register(username: "annb")
        #expect(throws: AccountError.usernameTaken) {
            try AccountDecider.given([Fixtures.annRegistered]).when(.register(command), metadata).get()
        }
    }

    @Test func emailReleasedByAnEmailChangeIsFreeAgain() throws {
        let moved = AccountEvent.emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@new.example"))
        let command = Fixtures.register(email: "Ann@Example.org")
        let events = try AccountDecider.given([Fixtures.annRegistered, moved]).when(.register(command), metadata).get()
        #expect(events.count == 1)
        #expect(throws: AccountError.emailTaken) {
            try AccountDecider.given([Fixtures.annRegistered, moved]).when(.register(Fixtures.register(email: "ann@new.example")), metadata).get()
        }
    }

    @Test func usernameReleasedByAUsernameChangeIsFreeAgain() throws {
        let renamed = AccountEvent.usernameChanged(.init(userId: "ann", oldUsername: "AnnB", newUsername: "Annie"))
        let state = AccountDecider.given([Fixtures.annRegistered, renamed])
        #expect(try state.when(.register(Fixtures.register(username: "ANNB")), metadata).get().count == 1)
        #expect(throws: AccountError.usernameTaken) { try state.when(.register(Fixtures.register(username: "annie")), metadata).get() }
    }

    /// The boundary of a registration can hold another user's e-mail change without their registration.
    @Test func claimsSeenWithoutTheirRegistrationStillCount() {
        let claimed = AccountEvent.emailChanged(.init(userId: "dan", oldEmail: "dan@example.org", newEmail: "cat@example.org"))
        #expect(throws: AccountError.emailTaken) {
            try AccountDecider.given([claimed]).when(.register(Fixtures.register()), metadata).get()
        }
        #expect(AccountDecider.fold([claimed]).accounts.isEmpty)
    }

    @Test func everyBadFieldIsListedAtOnce() {
        let command = AccountCommand.Register(
            userId: "cat", email: "not-an-email", passwordHash: Fixtures.hash("c"), passwordLength: 7,
            displayName: "   ", firstName: String(repeating: "x", count: 101), lastName: "Line\nbreak",
            username: "no spaces", postcode: "1"
        )
        let result = AccountDecider.given([]).when(.register(command), metadata)
        guard case .failure(let error) = result else { Issue.record("expected a refusal"); return }
        #expect(error.code == "validation_failed")
        #expect(error.kind == .validation)
        #expect(error.fieldErrors.map(\.field) == ["email", "displayName", "firstName", "lastName", "username", "postcode", "password"])
    }

    @Test func validationComesBeforeUniqueness() {
        let command = Fixtures.register(email: "ann@example.org", passwordLength: 3)
        #expect(throws: AccountError.validationFailed([FieldError("password", "must be at least 8 characters")])) {
            try AccountDecider.given([Fixtures.annRegistered]).when(.register(command), metadata).get()
        }
    }

    @Test func passwordLengthBounds() throws {
        let state = AccountDecider.given([])
        #expect(try state.when(.register(Fixtures.register(passwordLength: 8)), metadata).get().count == 1)
        #expect(try state.when(.register(Fixtures.register(passwordLength: 200)), metadata).get().count == 1)
        #expect(throws: AccountError.validationFailed([FieldError("password", "must be at most 200 characters")])) {
            try state.when(.register(Fixtures.register(passwordLength: 201)), metadata).get()
        }
    }

    @Test func sameIdTwiceIsRefused() {
        #expect(throws: AccountError.accountAlreadyExists) {
            try AccountDecider.given([Fixtures.annRegistered]).when(.register(Fixtures.register("ann")), metadata).get()
        }
    }
}
