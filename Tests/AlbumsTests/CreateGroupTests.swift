import EventSourcing
import Testing
@testable import Albums

/// Creating a group: its name, and one owner never having two live groups of one name.
@Suite("Albums create group")
struct CreateGroupTests {
    typealias D = AlbumsDecider
    typealias F = Fixture

    func create(_ groupId: String = F.summer, name: String = " Summer ", by userId: String = F.ann,
                email: String? = nil) -> AlbumsCommand {
        .createGroup(groupId: groupId, name: name, ownerId: userId, by: F.actor(userId, email: email))
    }

    @Test func theCreatorIsTheFirstMemberAndHoldsTheirNormalisedAddress() throws {
        let events = try D.given([]).when(create(email: "  Ann@Example.ORG "), F.by(F.ann)).get()
        #expect(events == [F.created()])
        let state = D.fold(events)
        #expect(state.groups[F.summer]?.members == [F.ann])
        #expect(state.groups[F.summer]?.claimedAddresses == [F.email(F.ann): F.ann])
        #expect(state.groups[F.summer]?.ownerId == F.ann && state.groups[F.summer]?.name == "Summer")
    }

    @Test func theNameIsRequiredAndBounded() {
        #expect(D.given([]).when(create(name: "   "), F.by(F.ann)).fields == ["name"])
        #expect(D.given([]).when(create(name: F.huge), F.by(F.ann)).fields == ["name"])
        #expect(D.given([]).when(create(name: "Two\nlines"), F.by(F.ann)).fields == ["name"])
        #expect(D.given([]).when(create(name: String(repeating: "n", count: 101)), F.by(F.ann)).fields == ["name"])
        #expect(throws: Never.self) { try D.given([]).when(create(name: String(repeating: "n", count: 100)), F.by(F.ann)).get() }
    }

    @Test func oneOwnerCannotHaveTwoLiveGroupsOfOneNameWhateverTheCase() {
        let refusal = D.given([F.created()]).when(create(F.winter, name: "  SUMMER"), F.by(F.ann)).failure
        #expect(refusal == .groupNameTaken && refusal?.code == "group_name_taken" && refusal?.kind == .conflict)
        #expect(D.given([F.created()]).when(create(F.winter, name: "ｓｕｍｍｅｒ"), F.by(F.ann)).failure == .groupNameTaken)
    }

    @Test func anotherUsersGroupOfTheSameNameIsNoClash() throws {
        // Bob's boundary would not even hold Ann's group; given it anyway, it is still no clash.
        let events = try D.given([F.created()]).when(create(F.winter, name: "Summer", by: F.bob), F.by(F.bob)).get()
        #expect(events == [F.created(F.winter, by: F.bob)])
    }

    @Test func aDeletedGroupsNameIsFreeAgain() throws {
        let history = F.group + [F.left(F.bob), F.left(F.ann), F.deleted()]
        let events = try D.given(history).when(create(F.winter, name: "summer"), F.by(F.ann)).get()
        #expect(events == [F.created(F.winter, name: "summer")])
    }

    @Test func aGroupIdIsNeverReusedEvenAfterDeletion() {
        #expect(D.given([F.created()]).when(create(name: "Other"), F.by(F.ann)).failure == .idTaken)
        let history = F.group + [F.left(F.bob), F.left(F.ann), F.deleted()]
        #expect(D.given(history).when(create(name: "Other"), F.by(F.ann)).failure == .idTaken)
    }

    @Test func theBoundaryIsTheGroupAndTheOwnersNameTag() {
        let boundary = D.boundary(of: create(F.winter, name: " SUMMER "))
        #expect(boundary == Boundary.tag("group:\(F.winter)").union(.tag(AlbumsEvent.groupNameTag(owner: F.ann, name: "summer"))))
        // The name tag is what creation and deletion events carry, so the boundary sees them.
        #expect(F.created().tags.contains(AlbumsEvent.groupNameTag(owner: F.ann, name: "summer")))
        #expect(F.deleted().tags.contains(AlbumsEvent.groupNameTag(owner: F.ann, name: "summer")))
        let others: [AlbumsCommand] = [
            .invite(groupId: F.summer, email: "x@example.org", by: F.actor(F.ann)), .leave(groupId: F.summer, by: F.actor(F.ann)),
            .addPhoto(groupId: F.summer, photoId: F.photo, blobId: F.beachBlob, description: "d", by: F.actor(F.ann)),
            .deletePhoto(groupId: F.summer, photoId: F.photo, by: F.actor(F.ann)),
            .postMessage(groupId: F.summer, messageId: F.message, text: "t", by: F.actor(F.ann)),
        ]
        for command in others { #expect(D.boundary(of: command) == .tag("group:\(F.summer)")) }
    }
}
