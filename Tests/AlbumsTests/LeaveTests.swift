import EventSourcing
import Testing
@testable import Albums

/// Leaving: the account stops being a member; the last one leaving deletes the group.
@Suite("Albums leaving")
struct LeaveTests {
    typealias D = AlbumsDecider
    typealias F = Fixture

    func leave(by userId: String, as address: String? = nil) -> AlbumsCommand {
        .leave(groupId: F.summer, by: F.actor(userId, email: address))
    }

    @Test func aMemberLeavesAndIsNoLongerOne() throws {
        let events = try D.given(F.group).when(leave(by: F.bob), F.by(F.bob)).get()
        #expect(events == [F.left(F.bob)])
        let after = F.group + events
        #expect(D.given(after).when(leave(by: F.bob), F.by(F.bob)).failure == .groupNotFound)
        #expect(D.given(after).when(.postMessage(groupId: F.summer, messageId: F.message, text: "Hi", by: F.actor(F.bob)),
                                    F.by(F.bob)).failure == .groupNotFound)
        // The group lives on for Ann.
        #expect(D.fold(after).groups[F.summer]?.isDeleted == false)
    }

    @Test func theOwnerMayLeaveFirst() throws {
        #expect(try D.given(F.group).when(leave(by: F.ann), F.by(F.ann)).get() == [F.left(F.ann)])
    }

    @Test func theLastMemberLeavingDeletesTheGroupWithTheBlobsOfItsLivePhotos() throws {
        let deletedPhoto = AlbumsEvent.photoDeleted(.init(groupId: F.summer, photoId: "gone", blobId: "c" + String(F.beachBlob.dropFirst()),
                                                          actorId: F.ann))
        let history = F.group + [
            F.photoAdded(F.photo, blob: F.duneBlob), F.photoAdded(F.secondPhoto, blob: F.beachBlob, by: F.bob),
            F.photoAdded("same-bytes", blob: F.duneBlob), F.photoAdded("gone", blob: "c" + String(F.beachBlob.dropFirst())),
            deletedPhoto, F.left(F.ann),
        ]
        let events = try D.given(history).when(leave(by: F.bob), F.by(F.bob)).get()
        // Each blob once, sorted; the deleted photo's blob is not the group's any more.
        #expect(events == [F.left(F.bob), F.deleted(blobs: [F.beachBlob, F.duneBlob])])
        let state = D.fold(history + events)
        #expect(state.groups[F.summer]?.isDeleted == true && state.groups[F.summer]?.photos.isEmpty == true)
    }

    @Test func aDeletedGroupAcceptsNothing() {
        let history = F.group + [F.left(F.bob), F.left(F.ann), F.deleted()]
        let commands: [AlbumsCommand] = [
            leave(by: F.ann), .invite(groupId: F.summer, email: "ann@example.org", by: F.actor(F.ann)),
            .postMessage(groupId: F.summer, messageId: F.message, text: "Hi", by: F.actor(F.ann)),
            .addPhoto(groupId: F.summer, photoId: F.photo, blobId: F.beachBlob, description: "d", by: F.actor(F.ann)),
        ]
        for command in commands { #expect(D.given(history).when(command, F.by(F.ann)).failure == .groupNotFound) }
    }

    @Test func aMemberLeavesUnderTheirAddressOfNowAndAnOutsiderCannotLeave() throws {
        let events = try D.given(F.group).when(leave(by: F.bob, as: "bob@elsewhere.org"), F.by(F.bob)).get()
        #expect(events == [.memberLeft(.init(groupId: F.summer, email: "bob@elsewhere.org", userId: F.bob, leftAt: F.now))])
        // Cat holding Bob's address now makes her no member.
        #expect(D.given(F.group).when(leave(by: F.cat, as: "bob@example.org"), F.by(F.cat)).failure == .groupNotFound)
    }

    @Test func aPendingInvitationKeepsNoGroupAlive() throws {
        let history = [F.created(), F.invited("dan@example.org")]
        #expect(D.fold(history).groups[F.summer]?.members == [F.ann])
        let events = try D.given(history).when(leave(by: F.ann), F.by(F.ann)).get()
        #expect(events == [F.left(F.ann), F.deleted()])
    }

    @Test func anErasedAddressIsNoInvitation() throws {
        // Bob was erased: his invitation's address reads empty, and is nothing pending.
        let erasedInvite = AlbumsEvent.memberInvited(.init(groupId: F.summer, email: "", emailSubject: "invitee_x",
                                                           inviterId: F.ann, invitedAt: F.now))
        let history = [F.created(), erasedInvite]
        #expect(D.fold(history).groups[F.summer]?.pendingInvitations == [])
        #expect(D.given(history).when(leave(by: F.cat, as: ""), F.by(F.cat)).failure == .groupNotFound)
    }

    @Test func beforeClaimsALeaveByAddressSpentItsInvitation() {
        // A log from before claims: Bob was a member by address and left; his address is invitable again.
        let history = [F.created(), F.invited("bob@example.org"), F.left(F.bob)]
        #expect(D.fold(history).groups[F.summer]?.pendingInvitations == [])
    }
}
