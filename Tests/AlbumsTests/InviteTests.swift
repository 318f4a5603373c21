import EventSourcing
import Testing
@testable import Albums

/// Invitations: an invited address is no member until an account that verified it claims the
/// invitation; from then on the membership is that user id's, whatever its address later.
@Suite("Albums invitations")
struct InviteTests {
    typealias D = AlbumsDecider
    typealias F = Fixture

    func invite(_ email: String, by userId: String = F.ann, as address: String? = nil) -> AlbumsCommand {
        .invite(groupId: F.summer, email: email, by: F.actor(userId, email: address))
    }

    func post(by userId: String, as address: String? = nil) -> AlbumsCommand {
        .postMessage(groupId: F.summer, messageId: F.message, text: "Hello", by: F.actor(userId, email: address))
    }

    @Test func aMemberInvitesANormalisedAddress() throws {
        let events = try D.given([F.created()]).when(invite("  Bob@Example.ORG "), F.by(F.ann)).get()
        #expect(events == [F.invited("bob@example.org")])
        guard case .memberInvited(let invited) = events.first else { Issue.record("no invitation"); return }
        #expect(invited.emailSubject == AlbumsNames.inviteeSubject(email: "bob@example.org"))
        #expect(invited.emailSubject.hasPrefix("invitee_") && !invited.emailSubject.contains("bob"))
    }

    @Test func theInviteeActsAsAMemberOnlyOnceTheyClaimedTheInvitation() throws {
        let invited = [F.created()] + (try D.given([F.created()]).when(invite("bob@example.org"), F.by(F.ann)).get())
        #expect(D.given(invited).when(post(by: F.bob), F.by(F.bob)).failure == .groupNotFound, "an invitation grants nothing")
        let claimed = try D.given(invited).when(.claimInvitation(groupId: F.summer, email: "Bob@Example.org"), F.by(F.bob)).get()
        #expect(claimed == [F.claimed(F.bob)])
        #expect(try D.given(invited + claimed).when(post(by: F.bob), F.by(F.bob)).get().count == 1)
        // And invites in turn.
        #expect(try D.given(invited + claimed).when(invite("cat@example.org", by: F.bob), F.by(F.bob)).get().count == 1)
    }

    @Test func anAccountThatChangesItsAddressToAnInvitedOneIsNoMember() {
        // Cat's account now has Bob's claimed address, or one still pending: neither makes her a member.
        #expect(D.given(F.group).when(post(by: F.cat, as: "BOB@example.org"), F.by(F.cat)).failure == .groupNotFound)
        let pending = [F.created(), F.invited("dan@example.org")]
        #expect(D.given(pending).when(post(by: F.cat, as: "dan@example.org"), F.by(F.cat)).failure == .groupNotFound)
    }

    @Test func aMemberWhoChangesTheirAddressStaysAMember() throws {
        #expect(try D.given(F.group).when(post(by: F.bob, as: "bob@elsewhere.org"), F.by(F.bob)).get().count == 1)
        #expect(try D.given(F.group).when(invite("cat@example.org", by: F.bob, as: "bob@elsewhere.org"), F.by(F.bob)).get().count == 1)
    }

    @Test func aClaimTakesOnlyAPendingInvitation() throws {
        // Claimed already: nothing more to claim, for Bob or for whoever holds the address now.
        #expect(try D.given(F.group).when(.claimInvitation(groupId: F.summer, email: "bob@example.org"), F.by(F.bob)).get() == [])
        #expect(try D.given(F.group).when(.claimInvitation(groupId: F.summer, email: "bob@example.org"), F.by(F.cat)).get() == [])
        #expect(D.fold(F.group).groups[F.summer]?.isMember(F.cat) == false)
        // Never invited, or a group gone: nothing, or not found.
        #expect(try D.given(F.group).when(.claimInvitation(groupId: F.summer, email: "cat@example.org"), F.by(F.cat)).get() == [])
        #expect(D.given([]).when(.claimInvitation(groupId: F.summer, email: "cat@example.org"), F.by(F.cat)).failure == .groupNotFound)
        let gone = F.group + [F.left(F.bob), F.invited("dan@example.org"), F.left(F.ann), F.deleted()]
        #expect(D.given(gone).when(.claimInvitation(groupId: F.summer, email: "dan@example.org"), F.by(F.cat)).failure == .groupNotFound)
    }

    @Test func invitingAMemberAgainIsAlreadyInvited() {
        let refusal = D.given(F.group).when(invite("BOB@example.org "), F.by(F.ann)).failure
        #expect(refusal == .alreadyInvited && refusal?.code == "already_invited" && refusal?.kind == .conflict)
        #expect(D.given(F.group).when(invite("ann@example.org"), F.by(F.bob)).failure == .alreadyInvited)
    }

    @Test func anAddressThatLeftMayBeInvitedAgain() throws {
        let events = try D.given(F.group + [F.left(F.bob)]).when(invite("bob@example.org"), F.by(F.ann)).get()
        #expect(events == [F.invited("bob@example.org")])
        #expect(D.given(F.group + [F.left(F.bob)] + events).when(invite("bob@example.org"), F.by(F.ann)).failure == .alreadyInvited,
                "pending counts as invited")
    }

    @Test func outsidersCannotInvite() {
        #expect(D.given(F.group).when(invite("dan@example.org", by: F.cat), F.by(F.cat)).failure == .groupNotFound)
        #expect(D.given([]).when(invite("dan@example.org"), F.by(F.ann)).failure == .groupNotFound)
    }

    @Test func onlyPlausibleAddressesAreInvited() {
        let bad = ["", "   ", "bob", "@example.org", "bob@", "bob@@example.org", "bob@exa@mple.org", "bob@localhost",
                   "bob@example..org", "bob@.org", "b ob@example.org", "bob@exam\tple.org", "bob@example.org\u{0}",
                   F.huge + "@example.org", String(repeating: "b", count: 243) + "@example.org"]
        for email in bad {
            #expect(D.given([F.created()]).when(invite(email), F.by(F.ann)).fields == ["email"], "\(email.prefix(40)) accepted")
        }
        #expect(throws: Never.self) {
            try D.given([F.created()]).when(invite(String(repeating: "b", count: 242) + "@example.org"), F.by(F.ann)).get()
        }
        #expect(throws: Never.self) { try D.given([F.created()]).when(invite("a@b.c"), F.by(F.ann)).get() }
    }

    @Test func aGroupHasAtMost500MembersAndPendingInvitations() throws {
        let full = F.group + (2..<AlbumsLimits.membersPerGroupMax).map { F.invited("m\($0)@example.org") }
        let group = try #require(D.fold(full).groups[F.summer])
        #expect(group.members.count + group.pendingInvitations.count == AlbumsLimits.membersPerGroupMax)
        let refusal = D.given(full).when(invite("one-more@example.org"), F.by(F.ann)).failure
        #expect(refusal == .limitReached(.members) && refusal?.code == "limit_reached")
        // Someone leaving makes room.
        #expect(try D.given(full + [F.left(F.ann)]).when(invite("one-more@example.org", by: F.bob), F.by(F.bob)).get().count == 1)
    }
}
