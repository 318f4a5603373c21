@testable import Accounts
import EventSourcing
import Foundation
import Testing

@Suite("Account event coding")
struct EventCodingTests {
    /// One event of every case, with optional fields both present and absent.
    static let everyCase: [AccountEvent] = [
        Fixtures.annRegistered,
        .registered(.init(userId: "cat", email: "cat@example.org", passwordHash: Fixtures.hash("c"), displayName: "Cat")),
        .profileUpdated(.init(userId: "ann", displayName: "Ann", firstName: "Ann", lastName: "Bee", postcode: "1234AB")),
        .profileUpdated(.init(userId: "ann", displayName: "Ann")),
        .emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@new.example")),
        .usernameChanged(.init(userId: "ann", oldUsername: "AnnB", newUsername: "annie")),
        .usernameChanged(.init(userId: "cat", oldUsername: nil, newUsername: "cat")),
        .passwordChanged(.init(userId: "ann", passwordHash: Fixtures.hash("n"))),
        Fixtures.sessionStarted("1"),
        .sessionEnded(.init(userId: "ann", tokenHash: Fixtures.token("1"))),
        Fixtures.resetRequested("2"),
        .passwordResetRedeemed(.init(userId: "ann", tokenHash: Fixtures.token("2"))),
        .avatarChanged(.init(userId: "ann", blobId: String(repeating: "ab", count: 32))),
        .erased(.init(userId: "ann", releasedTags: ["email:0123abcd", "username:4567ef"])),
        Fixtures.verificationRequested("3"),
        .emailVerified(.init(userId: "ann", email: "ann@example.org")),
    ]

    @Test(arguments: everyCase)
    func roundTrips(_ event: AccountEvent) throws {
        let data = try event.encodeData()
        // Through the fast decoder alone: a payload that fell back to Foundation would be slow.
        let decoded = try EventJSON.$fastPathOnly.withValue(true) {
            try AccountEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: data)
        }
        #expect(decoded == event)
        #expect(event.schemaVersion == 1)
        #expect(AccountEvent.typeNames.contains(event.typeName))
        let userId = (event.eventPayload as! any AccountPayload).userId
        #expect(event.streamID == "account-\(userId)")
        #expect(event.tags.first == "user:\(userId)")
    }

    @Test func everyTypeNameIsCovered() {
        #expect(Set(Self.everyCase.map(\.typeName)) == Set(AccountEvent.typeNames))
        #expect(AccountEvent.typeNames.allSatisfy { $0.hasPrefix("account.") })
    }

    @Test func storedShapeIsStable() throws {
        let json = String(decoding: try Fixtures.sessionStarted("1").encodeData(), as: UTF8.self)
        #expect(json == #"{"expiresAt":"2027-01-15T09:00:00.000Z","tokenHash":"\#(String(repeating: "1", count: 64))","userId":"ann"}"#)
        let absent = String(decoding: try Self.everyCase[3].encodeData(), as: UTF8.self)
        #expect(absent == #"{"displayName":"Ann","userId":"ann"}"#, "absent optionals are left out")
    }

    @Test func otherDomainsTypesAreNotOurs() throws {
        #expect(try AccountEvent.decode(typeName: "household.taskCompleted", schemaVersion: 1, data: Data("{}".utf8)) == nil)
    }

    @Test func malformedSecretsAreRefusedOnDecode() {
        let plaintextHash = Data(#"{"passwordHash":"hunter2hunter2","userId":"ann"}"#.utf8)
        #expect(throws: DecodingError.self) { try AccountEvent.decode(typeName: "account.passwordChanged", schemaVersion: 1, data: plaintextHash) }
        let rawToken = Data(#"{"tokenHash":"not-a-hash","userId":"ann"}"#.utf8)
        #expect(throws: DecodingError.self) { try AccountEvent.decode(typeName: "account.sessionEnded", schemaVersion: 1, data: rawToken) }
    }
}
