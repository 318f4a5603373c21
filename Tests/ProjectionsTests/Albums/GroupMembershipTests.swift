@testable import Accounts
import Albums
import Foundation
import Testing
@testable import Projections

/// Membership belongs to user ids: the creator and whoever claimed an invitation. A pending
/// invitation shows as its address alone and grants nothing, whoever holds the address; the
/// holder of a verified address is who its invitations are for.
@Suite("Albums read model: groups, members and pending invitations", .timeLimit(.minutes(3)))
struct GroupMembershipTests {
    private typealias H = AlbumsHistory

    @Test func aPendingInvitationIsTheAddressAloneUntilClaimed() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob", name: "Bobby"))
        try await fixture.append(H.create("g1", "Holiday"), H.invite("g1", "bob@example.org"))

        #expect(try q.groups(ofUser: "bob") == [], "the account holding the address is no member yet")
        #expect(try q.isMember("bob", of: "g1") == false)
        #expect(try q.group("g1")?.members == [
            GroupMemberView(email: "ann@example.org", userId: "ann", displayName: "Ann"),
            GroupMemberView(email: "bob@example.org", userId: nil, displayName: nil),
        ], "no name or id: inviting reveals nothing about who is registered")
        #expect(try q.groupsInviting("bob@example.org") == ["g1"])
        #expect(try q.groups(ofUser: "ann") == [GroupSummary(groupId: "g1", name: "Holiday", memberCount: 2)])

        try await fixture.append(H.claim("g1", "bob"))
        #expect(try q.groups(ofUser: "bob") == [GroupSummary(groupId: "g1", name: "Holiday", memberCount: 2)])
        #expect(try q.isMember("bob", of: "g1"))
        #expect(try q.groupsInviting("bob@example.org") == [])
        #expect(try q.group("g1") == GroupView(groupId: "g1", name: "Holiday", ownerId: "ann", createdAt: H.start, members: [
            GroupMemberView(email: "ann@example.org", userId: "ann", displayName: "Ann"),
            GroupMemberView(email: "bob@example.org", userId: "bob", displayName: "Bobby"),
        ]))
    }

    @Test func theVerifiedHolderOfAnAddressIsWhoItsInvitationsAreFor() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("cara"))
        #expect(try q.verifiedHolder(of: "cara@example.org") == nil, "registered, not verified")
        try await fixture.append(H.verify("cara"))
        #expect(try q.verifiedHolder(of: "cara@example.org") == "cara")
        // A new address starts unverified, and the old one is no one's.
        try await fixture.append(AccountEvent.emailChanged(.init(userId: "cara", oldEmail: "cara@example.org", newEmail: "cb@example.org")))
        #expect(try q.verifiedHolder(of: "cb@example.org") == nil)
        #expect(try q.verifiedHolder(of: "cara@example.org") == nil)
        // A verification of an address she no longer has verifies nothing.
        try await fixture.append(H.verify("cara", email: "cara@example.org"))
        #expect(try q.verifiedHolder(of: "cb@example.org") == nil)
        try await fixture.append(H.verify("cara", email: "cb@example.org"))
        #expect(try q.verifiedHolder(of: "cb@example.org") == "cara")
        try await fixture.append(AccountEvent.erased(.init(userId: "cara", releasedTags: [])))
        #expect(try q.verifiedHolder(of: "cb@example.org") == nil)
    }

    @Test func aClaimedMembershipIsTheUsersWhateverTheirAddressLater() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("cara"))
        try await fixture.append(H.create("g1", "Family"), H.invite("g1", "cara@example.org"), H.claim("g1", "cara"))

        try await fixture.append(AccountEvent.emailChanged(.init(userId: "cara", oldEmail: "cara@example.org", newEmail: "c@example.org")))
        #expect(try q.isMember("cara", of: "g1"), "changing e-mail does not lose it")
        #expect(try q.group("g1")?.members.first { $0.userId == "cara" } == GroupMemberView(email: "c@example.org", userId: "cara", displayName: "Cara"))
        // ...nor hand it on: whoever takes the old address is no member.
        try await fixture.append(H.register("dan", email: "cara@example.org"), H.verify("dan", email: "cara@example.org"))
        #expect(try q.isMember("dan", of: "g1") == false)
        #expect(try q.groupsInviting("cara@example.org") == [])
    }

    @Test func leavingEndsMembershipAndTheCountFollows() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"))
        try await fixture.append(
            H.create("g1", "Band"), H.invite("g1", "bob@example.org"), H.claim("g1", "bob"), H.invite("g1", "zed@example.org"))
        #expect(try q.groups(ofUser: "ann").first?.memberCount == 3)

        try await fixture.append(H.leave("g1", "bob"))
        #expect(try q.isMember("bob", of: "g1") == false)
        #expect(try q.groups(ofUser: "bob") == [])
        #expect(try q.groups(ofUser: "ann").first?.memberCount == 2)
        #expect(try q.group("g1")?.members.map(\.email) == ["ann@example.org", "zed@example.org"])

        try await fixture.append(H.invite("g1", "bob@example.org"))
        #expect(try q.isMember("bob", of: "g1") == false, "invited again: pending again")
        try await fixture.append(H.claim("g1", "bob"))
        #expect(try q.isMember("bob", of: "g1"))
        #expect(try q.groups(ofUser: "ann").first?.memberCount == 3)
    }

    @Test func beforeClaimsALeaveByAddressSpendsItsInvitation() async throws {
        // A log written before claims: Bob was a member by his address, then left.
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("ann"), H.register("bob"))
        try await fixture.append(H.create("g1", "Old"), H.invite("g1", "bob@example.org"), H.leave("g1", "bob"))
        #expect(try fixture.albums.group("g1")?.members.map(\.email) == ["ann@example.org"])
        #expect(try fixture.albums.groupsInviting("bob@example.org") == [])
    }

    @Test func aDeletedGroupVanishesWithItsRowsAndLeavesOthersAlone() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"))
        // "g1/x" escapes to a key that shares no prefix with g1's, though the id starts with it.
        for group in ["g1", "g1/x"] {
            try await fixture.append(
                H.create(group, "Group \(group)"), H.invite(group, "bob@example.org"), H.claim(group, "bob"),
                H.invite(group, "zed@example.org"), H.photo(group, "p1", blob: H.blob(1)), H.message(group, "m1"))
        }
        try await fixture.append(H.leave("g1", "bob"), H.leave("g1", "ann"), H.delete("g1", "Group g1", blobs: [H.blob(1)]))

        #expect(try q.group("g1") == nil)
        #expect(try q.isMember("ann", of: "g1") == false)
        #expect(try q.groups(ofUser: "ann").map(\.groupId) == ["g1/x"])
        #expect(try q.groups(ofUser: "bob").map(\.groupId) == ["g1/x"])
        #expect(try q.groupsInviting("zed@example.org") == ["g1/x"])
        #expect(try q.photo("p1", of: "g1") == nil)
        #expect(try q.photos(of: "g1", limit: nil, cursor: nil).items == [])
        #expect(try q.messages(of: "g1", limit: nil, cursor: nil).items == [])
        #expect(try q.photo("p1", of: "g1/x")?.blobId == H.blob(1))
        #expect(try q.messages(of: "g1/x", limit: nil, cursor: nil).items.map(\.messageId) == ["m1"])
        #expect(try q.group("g1/x")?.members.count == 3)

        // Nothing of g1 is left in any table.
        let raw = try RawReadModel(AlbumsProjections.groups, in: fixture.engine)
        for (table, entries) in raw.tables {
            let keys = entries.map { String(decoding: $0.key, as: UTF8.self) }
            #expect(!keys.contains { $0.hasPrefix("g1/") || $0 == "g1" || $0.hasSuffix("/g1") }, "\(table): \(keys)")
        }
    }

    @Test func anErasedAccountIsNoLongerAMemberNorItsAddressInvited() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"), H.register("cat"))
        try await fixture.append(
            H.create("g1", "Club"), H.invite("g1", "bob@example.org"), H.claim("g1", "bob"), H.invite("g1", "cat@example.org"))
        try await fixture.append(AccountEvent.erased(.init(userId: "bob", releasedTags: [])))
        try await fixture.append(AccountEvent.erased(.init(userId: "cat", releasedTags: [])))
        #expect(try q.isMember("bob", of: "g1") == false)
        #expect(try q.groups(ofUser: "bob") == [])
        // Neither shows: a rebuild reads both addresses erased, and so does the live copy.
        #expect(try q.group("g1")?.members.map(\.email) == ["ann@example.org"])
        #expect(try q.groups(ofUser: "ann").first?.memberCount == 1)
        #expect(try q.groupsInviting("cat@example.org") == [])
    }

    @Test func erasedAddressesReadEmptyAreNoInvitations() async throws {
        // In a rebuild after erasure, sealed addresses read as "" (ADR 0004): no one's address.
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("ann"))
        try await fixture.append(
            H.create("g1", "Club"), H.invite("g1", ""), H.invite("g1", ""), H.claim("g1", "gone", email: ""),
            H.leave("g1", "gone", email: ""))
        #expect(try fixture.albums.group("g1")?.members.map(\.email) == ["ann@example.org"])
        #expect(try fixture.albums.groups(ofUser: "ann").first?.memberCount == 1)
    }

    @Test func unknownIdsAndStrangersFindNothing() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("eve"))
        try await fixture.append(H.create("g1", "Private"))
        #expect(try q.group("nope") == nil)
        #expect(try q.isMember("eve", of: "g1") == false)
        #expect(try q.isMember("nobody", of: "g1") == false)
        #expect(try q.isMember("ann", of: "nope") == false)
        #expect(try q.groups(ofUser: "nobody") == [])
        #expect(try q.groups(ofUser: "eve") == [])
        #expect(try q.group(String(repeating: "x", count: 600)) == nil, "an id too long for a key names nothing")
        #expect(try q.isMember("ann", of: String(repeating: "x", count: 600)) == false)
    }

    @Test func anAddressTooLongForAKeyIsStillInvitedAndClaimed() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        // An address an account may hold (192 bytes), whose 180 slashes escape to 540 bytes: past
        // LMDB's 511-byte keys unless hashed.
        let long = String(repeating: "/", count: 180) + "@example.org"
        try await fixture.append(H.register("ann"))
        try await fixture.append(H.create("g1", "Long"), H.invite("g1", long))
        #expect(try fixture.albums.group("g1")?.members.map(\.email) == [long, "ann@example.org"], "by address, bytewise")
        #expect(try fixture.albums.groupsInviting(long) == ["g1"])
        try await fixture.append(H.register("lee", email: long), H.verify("lee", email: long))
        #expect(try fixture.albums.verifiedHolder(of: long) == "lee")
        try await fixture.append(H.claim("g1", "lee", email: long))
        #expect(try fixture.albums.isMember("lee", of: "g1"))
        #expect(try fixture.albums.group("g1")?.members.contains(GroupMemberView(email: long, userId: "lee", displayName: "Lee")) == true)
    }

    @Test func myGroupsAreByNameIgnoringCaseThenId() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("ann"))
        try await fixture.append(H.create("g3", "beta"), H.create("g1", "Alpha"), H.create("g2", "alpha"), H.create("g0", "Gamma"))
        #expect(try fixture.albums.groups(ofUser: "ann").map(\.groupId) == ["g1", "g2", "g3", "g0"])
    }

    @Test func twoUsersShareAGroupWhileBothAreMembers() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"), H.register("eve"))
        try await fixture.append(
            H.create("g1", "One"), H.create("g2", "Two", owner: "bob"), H.invite("g1", "bob@example.org"), H.invite("g1", "eve@example.org"))
        #expect(try q.shareAGroup("ann", "bob") == false, "a pending invitation shares nothing")
        try await fixture.append(H.claim("g1", "bob"))
        #expect(try q.shareAGroup("ann", "bob"))
        #expect(try q.shareAGroup("bob", "ann"))
        #expect(try q.shareAGroup("ann", "eve") == false)
        #expect(try q.shareAGroup("ann", "nobody") == false)
        try await fixture.append(H.leave("g1", "bob"))
        #expect(try q.shareAGroup("ann", "bob") == false, "bob's own group g2 is not ann's")
    }
}
