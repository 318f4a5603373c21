@testable import Albums
import EventSourcing
import Foundation
import Testing

@Suite struct AlbumsEventCodingTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000.5)

    static let everyType: [AlbumsEvent] = [
        .groupCreated(.init(groupId: "g1", name: "Summer", ownerId: "u1", ownerEmail: "ann@example.com", createdAt: at)),
        .memberInvited(.init(groupId: "g1", email: "bob@example.com", emailSubject: "invitee_0a1b", inviterId: "u1", invitedAt: at)),
        .photoAdded(.init(groupId: "g1", photoId: "p1", blobId: "b1", description: "Beach", addedBy: "u1", addedByName: "Ann", addedAt: at)),
        .photoDeleted(.init(groupId: "g1", photoId: "p1", blobId: "b1", actorId: "u1")),
        .messagePosted(.init(groupId: "g1", messageId: "m1", text: "Hi", authorId: "u1", authorName: "Ann", postedAt: at)),
        .memberLeft(.init(groupId: "g1", email: "bob@example.com", userId: "u2", leftAt: at)),
        .groupDeleted(.init(groupId: "g1", name: "Summer", ownerId: "u1", blobIds: ["b2"], deletedAt: at)),
        .invitationClaimed(.init(groupId: "g1", email: "bob@example.com", userId: "u2", claimedAt: at)),
    ]

    @Test func everyEventRoundTripsThroughItsStoredForm() throws {
        for event in Self.everyType {
            let decoded = try AlbumsEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: event.encodeData())
            #expect(decoded == event)
            #expect(event.streamID == "group-g1")
            #expect(event.tags.first == "group:g1")
        }
        #expect(Set(Self.everyType.map(\.typeName)) == Set(AlbumsEvent.typeNames))
    }

    /// A photo's and a message's events carry their id as a tag, so an operator's audit by that
    /// id finds them; the group's own events name only the group (and its name's digest).
    @Test func photosAndMessagesAreTaggedByTheirIds() {
        let rest = Self.everyType.map { Array($0.tags.dropFirst()) }
        #expect(rest[2] == ["photo:p1"] && rest[3] == ["photo:p1"] && rest[4] == ["message:m1"])
        #expect(rest[1].isEmpty && rest[5].isEmpty)
    }

    /// Photos and messages are read straight from the JSON nodes (`NodeDecodable`): the same
    /// values as the Codable path for random variants and every one-change mutation.
    @Test func photosAndMessagesReadFromTheNodesAgreeWithTheCodablePath() throws {
        var random = SystemRandomNumberGenerator()
        var problems: [String] = []
        for event in Self.everyType {
            if case .photoAdded(let p) = event { problems += try NodeDecodingAgreement.disagreements(p, rounds: 100, using: &random) }
            if case .messagePosted(let p) = event { problems += try NodeDecodingAgreement.disagreements(p, rounds: 100, using: &random) }
        }
        #expect(problems.count == 0, "\(problems.prefix(3))")
    }

    @Test func creatingAndDeletingCarryTheOwnersNameTagWhateverTheSpelling() {
        let created = Self.everyType[0]
        let deleted = Self.everyType[6]
        #expect(created.tags.count == 2)
        #expect(created.tags.last == deleted.tags.last)
        #expect(AlbumsEvent.groupNameTag(owner: "u1", name: " SUMMER ") == AlbumsEvent.groupNameTag(owner: "u1", name: "summer"))
        #expect(AlbumsEvent.groupNameTag(owner: "u2", name: "summer") != AlbumsEvent.groupNameTag(owner: "u1", name: "summer"))
    }
}
