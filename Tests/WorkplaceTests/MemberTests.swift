import EventSourcing
import Testing
@testable import Workplace

/// Members: admins change a member's location and admin flag or remove them; members leave;
/// the last admin stays.
@Suite("Workplace members")
struct MemberTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    func change(_ userId: String, location: String? = nil, admin: Bool? = nil) -> WorkplaceCommand {
        .changeMember(organisationId: F.acme, userId: userId, locationId: location, admin: admin)
    }

    func remove(_ userId: String) -> WorkplaceCommand {
        .removeMember(organisationId: F.acme, userId: userId)
    }

    @Test func anAdminMovesAMemberAndMakesThemAdmin() throws {
        let moved = try D.given(F.organisation).when(change(F.bob, location: F.hq), F.by(F.ann)).get()
        #expect(moved == [F.changed(F.bob, at: F.hq, admin: false)])
        let promoted = try D.given(F.organisation).when(change(F.bob, admin: true), F.by(F.ann)).get()
        #expect(promoted == [F.changed(F.bob, at: F.depot, admin: true)])
        let bob = D.fold(F.organisation + promoted).organisations[F.acme]?.members[F.bob]
        #expect(bob?.isAdmin == true && bob?.locationId == F.depot && bob?.employeeNumber == "E-Bob")
    }

    @Test func aChangeToTheSameValuesChangesNothing() throws {
        #expect(try D.given(F.organisation).when(change(F.bob, location: F.depot, admin: false), F.by(F.ann)).get().isEmpty)
        #expect(try D.given(F.organisation).when(change(F.bob), F.by(F.ann)).get().isEmpty)
    }

    @Test func changingNeedsAMemberAndAnExistingLocation() {
        for userId in [F.cat, F.dan] {
            let failure = D.given(F.organisation).when(change(userId, admin: true), F.by(F.ann)).failure
            #expect(failure == .memberNotFound && failure?.code == "member_not_found" && failure?.kind == .notFound)
        }
        #expect(D.given(F.organisation).when(change(F.bob, location: F.shop), F.by(F.ann)).failure == .locationNotFound)
    }

    @Test func theLastAdminCannotLoseTheFlag() throws {
        let failure = D.given(F.organisation).when(change(F.ann, admin: false), F.by(F.ann)).failure
        #expect(failure == .lastAdmin && failure?.code == "last_admin" && failure?.kind == .conflict)
        // The last admin may still move.
        #expect(try D.given(F.organisation).when(change(F.ann, location: F.depot), F.by(F.ann)).get().count == 1)
        // With a second admin, either may step down.
        let two = F.organisation + [F.changed(F.bob, at: F.depot, admin: true)]
        #expect(try D.given(two).when(change(F.ann, admin: false), F.by(F.ann)).get() == [F.changed(F.ann, at: F.hq, admin: false)])
        #expect(try D.given(two).when(change(F.ann, admin: false), F.by(F.bob)).get().count == 1)
    }

    @Test func anAdminRemovesAMember() throws {
        let events = try D.given(F.organisation).when(remove(F.bob), F.by(F.ann)).get()
        #expect(events == [F.removed(F.bob)])
        #expect(D.fold(F.organisation + events).organisations[F.acme]?.viewer(F.bob).standing == .outsider)
    }

    @Test func aMemberLeaves() throws {
        #expect(try D.given(F.organisation).when(remove(F.bob), F.by(F.bob)).get() == [F.removed(F.bob, by: F.bob)])
    }

    @Test func anEmployeeCannotRemoveSomeoneElse() {
        #expect(D.given(F.organisation).when(remove(F.ann), F.by(F.bob)).failure == .notAnAdmin)
        #expect(D.given(F.organisation).when(remove(F.cat), F.by(F.bob)).failure == .notAnAdmin)
    }

    @Test func removingNeedsAMember() {
        // A pending user is not a member: their request is rejected, not removed.
        #expect(D.given(F.organisation).when(remove(F.cat), F.by(F.ann)).failure == .memberNotFound)
        #expect(D.given(F.organisation).when(remove(F.dan), F.by(F.ann)).failure == .memberNotFound)
    }

    @Test func theLastAdminCanNeitherLeaveNorBeRemoved() throws {
        let leaving = D.given(F.organisation).when(remove(F.ann), F.by(F.ann)).failure
        #expect(leaving == .lastAdmin)
        // With two admins, one may remove the other, and then the survivor is the last.
        let two = F.organisation + [F.changed(F.bob, at: F.depot, admin: true)]
        let removed = try D.given(two).when(remove(F.ann), F.by(F.bob)).get()
        #expect(removed == [.memberRemoved(.init(organisationId: F.acme, userId: F.ann, actorId: F.bob))])
        #expect(D.given(two + removed).when(remove(F.bob), F.by(F.bob)).failure == .lastAdmin)
        #expect(D.given(two + removed).when(change(F.bob, admin: false), F.by(F.bob)).failure == .lastAdmin)
    }
}
