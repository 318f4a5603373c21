@testable import Accounts
import EventSourcing
import Testing

@Suite("Sessions")
struct SessionTests {
    private let metadata = Fixtures.metadata

    @Test func startsASession() throws {
        let command = AccountCommand.StartSession(userId: "ann", tokenHash: Fixtures.token("1"), expiresAt: Fixtures.hourLater)
        let events = try AccountDecider.given([Fixtures.annRegistered]).when(.startSession(command), metadata).get()
        #expect(events == [Fixtures.sessionStarted("1")])
        #expect(events[0].tags == ["user:ann"])
    }

    @Test func startRefusals() {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.sessionStarted("1")])
        #expect(throws: AccountError.accountNotFound) {
            try given.when(.startSession(.init(userId: "zed", tokenHash: Fixtures.token("2"), expiresAt: Fixtures.hourLater)), metadata).get()
        }
        #expect(throws: AccountError.tokenInUse) {
            try given.when(.startSession(.init(userId: "ann", tokenHash: Fixtures.token("1"), expiresAt: Fixtures.hourLater)), metadata).get()
        }
        #expect(throws: AccountError.validationFailed([FieldError("expiresAt", "must be after now")])) {
            try given.when(.startSession(.init(userId: "ann", tokenHash: Fixtures.token("2"), expiresAt: Fixtures.now)), metadata).get()
        }
    }

    @Test func endsAnActiveSession() throws {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.sessionStarted("1")])
        let events = try given.when(.endSession(.init(userId: "ann", tokenHash: Fixtures.token("1"))), metadata).get()
        #expect(events == [.sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("1")))])
    }

    @Test func endingIsIdempotent() throws {
        let ended = AccountEvent.sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("1")))
        let end = AccountCommand.endSession(.init(userId: "ann", tokenHash: Fixtures.token("1")))
        #expect(try AccountDecider.given([Fixtures.annRegistered, Fixtures.sessionStarted("1"), ended]).when(end, metadata).get().isEmpty)
        #expect(try AccountDecider.given([Fixtures.annRegistered]).when(end, metadata).get().isEmpty, "unknown token")
        let expired = Fixtures.sessionStarted("1", expiresAt: Fixtures.hourEarlier)
        #expect(try AccountDecider.given([Fixtures.annRegistered, expired]).when(end, metadata).get().isEmpty, "expired token")
    }

    @Test func anotherUsersTokenIsNotEnded() throws {
        let given = AccountDecider.given([Fixtures.annRegistered, Fixtures.bobRegistered, Fixtures.sessionStarted("1", for: "bob")])
        #expect(try given.when(.endSession(.init(userId: "ann", tokenHash: Fixtures.token("1"))), metadata).get().isEmpty)
    }

    @Test func endingForAnUnknownAccountIsNotFound() {
        #expect(throws: AccountError.accountNotFound) {
            try AccountDecider.given([]).when(.endSession(.init(userId: "zed", tokenHash: Fixtures.token("1"))), metadata).get()
        }
    }
}
