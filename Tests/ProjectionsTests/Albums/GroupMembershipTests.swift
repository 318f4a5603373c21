import Accounts
import Albums
import Foundation
import Testing
@testable import Projections

/// Membership follows e-mail addresses: a group's members are addresses, joined at reading to
/// the account whose current e-mail each is, whenever that account was registered, and for as
/// long as the address stays its e-mail.
@Suite("Albums read model: groups and membership by address", .timeLimit(.minutes(3)))
struct GroupMembershipTests {
    private typealias H = AlbumsHistory

    @Test func anInvitationBeforeTheRegistrationCountsFromTheRegistration() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"))
        try await fixture.append(H.create("g1", "Holiday"), H.invite("g1", "bob@example.org"))

        #expect(try q.groups(ofUser: "bob") == [], "no account holds the address yet")
        #expect(try q.isMember("bob", of: "g1") == false)
        #expect(try q.group("g1")?.members == [
            GroupMemberView(email: "ann@example.org", userId: "ann", displayName: "Ann"),
            GroupMemberView(email: "bob@example.org", userId: nil, displayName: nil),
        ])
        #expect(try q.groups(ofUser: "ann") == [GroupSummary(groupId: "g1", name: "Holiday", memberCount: 2)])

        try await fixture.append(H.register("bob", name: "Bobby"))
        #expect(try q.groups(ofUser: "bob") == [GroupSummary(groupId: "g1", name: "Holiday", memberCount: 2)])
        #expect(try q.isMember("bob", of: "g1"))
        #expect(try q.group("g1") == GroupView(groupId: "g1", name: "Holiday", ownerId: "ann", createdAt: H.start, members: [
            GroupMemberView(email: "ann@example.org", userId: "ann", displayName: "Ann"),
            GroupMemberView(email: "bob@example.org", userId: "bob", displayName: "Bobby"),
        ]))
    }

    @Test func anEmailChangeMovesMembershipToAndFromAnInvitedAddress() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("cara"))
        try await fixture.append(H.create("g1", "Family"), H.invite("g1", "cb@example.org"))
        #expect(try q.isMember("cara", of: "g1") == false, "her address is not invited")

        try await fixture.append(AccountEvent.emailChanged(.init(userId: "cara", oldEmail: "cara@example.org", newEmail: "cb@example.org")))
        #expect(try q.isMember("cara", of: "g1"))
        #expect(try q.groups(ofUser: "cara").map(\.groupId) == ["g1"])
        try await fixture.append(AccountEvent.profileUpdated(.init(userId: "cara", displayName: "Cara B")))
        #expect(try q.group("g1")?.members.last == GroupMemberView(email: "cb@example.org", userId: "cara", displayName: "Cara B"))

        try await fixture.append(AccountEvent.emailChanged(.init(userId: "cara", oldEmail: "cb@example.org", newEmail: "c@example.org")))
        #expect(try q.isMember("cara", of: "g1") == false, "she moved away from the invited address")
        #expect(try q.groups(ofUser: "cara") == [])
        #expect(try q.group("g1")?.members.last == GroupMemberView(email: "cb@example.org", userId: nil, displayName: nil))

        // The released address is free: whoever registers with it now is the member.
        try await fixture.append(H.register("dan", email: "cb@example.org"))
        #expect(try q.isMember("dan", of: "g1"))
        #expect(try q.group("g1")?.members.last == GroupMemberView(email: "cb@example.org", userId: "dan", displayName: "Dan"))
    }

    @Test func leavingEndsMembershipAndTheCountFollows() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"))
        try await fixture.append(H.create("g1", "Band"), H.invite("g1", "bob@example.org"), H.invite("g1", "zed@example.org"))
        #expect(try q.groups(ofUser: "ann").first?.memberCount == 3)

        try await fixture.append(H.leave("g1", "bob"))
        #expect(try q.isMember("bob", of: "g1") == false)
        #expect(try q.groups(ofUser: "bob") == [])
        #expect(try q.groups(ofUser: "ann").first?.memberCount == 2)
        #expect(try q.group("g1")?.members.map(\.email) == ["ann@example.org", "zed@example.org"])

        try await fixture.append(H.invite("g1", "bob@example.org"))
        #expect(try q.isMember("bob", of: "g1"), "invited again")
        #expect(try q.groups(ofUser: "ann").first?.memberCount == 3)
    }

    @Test func aDeletedGroupVanishesWithItsRowsAndLeavesOthersAlone() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"))
        // "g1/x" escapes to a key that shares no prefix with g1's, though the id starts with it.
        for group in ["g1", "g1/x"] {
            try await fixture.append(
                H.create(group, "Group \(group)"), H.invite(group, "bob@example.org"), H.photo(group, "p1", blob: H.blob(1)),
                H.message(group, "m1"))
        }
        try await fixture.append(H.leave("g1", "bob"), H.leave("g1", "ann"), H.delete("g1", "Group g1", blobs: [H.blob(1)]))

        #expect(try q.group("g1") == nil)
        #expect(try q.isMember("ann", of: "g1") == false)
        #expect(try q.groups(ofUser: "ann").map(\.groupId) == ["g1/x"])
        #expect(try q.groups(ofUser: "bob").map(\.groupId) == ["g1/x"])
        #expect(try q.photo("p1", of: "g1") == nil)
        #expect(try q.photos(of: "g1", limit: nil, cursor: nil).items == [])
        #expect(try q.messages(of: "g1", limit: nil, cursor: nil).items == [])
        #expect(try q.photo("p1", of: "g1/x")?.blobId == H.blob(1))
        #expect(try q.messages(of: "g1/x", limit: nil, cursor: nil).items.map(\.messageId) == ["m1"])
        #expect(try q.group("g1/x")?.members.count == 2)

        // Nothing of g1 is left in any table.
        let raw = try RawReadModel(AlbumsProjections.groups, in: fixture.engine)
        for (table, entries) in raw.tables {
            let keys = entries.map { String(decoding: $0.key, as: UTF8.self) }
            #expect(!keys.contains { $0.hasPrefix("g1/") || $0 == "g1" || $0.hasSuffix("/g1") }, "\(table): \(keys)")
        }
    }

    @Test func anErasedAccountIsNoLongerJoinedToItsAddress() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"))
        try await fixture.append(H.create("g1", "Club"), H.invite("g1", "bob@example.org"))
        try await fixture.append(AccountEvent.erased(.init(userId: "bob", releasedTags: [])))
        #expect(try q.isMember("bob", of: "g1") == false)
        #expect(try q.groups(ofUser: "bob") == [])
        #expect(try q.group("g1")?.members.last == GroupMemberView(email: "bob@example.org", userId: nil, displayName: nil))
    }

    @Test func erasedAddressesReadEmptyAreNoMembers() async throws {
        // In a rebuild after erasure, sealed addresses read as "" (ADR 0004): no one's address.
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("ann"))
        try await fixture.append(H.create("g1", "Club"), H.invite("g1", ""), H.invite("g1", ""), H.leave("g1", "gone", email: ""))
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

    @Test func anAddressTooLongForAKeyIsStillAMember() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        // An address an account may hold (192 bytes), whose 180 slashes escape to 540 bytes: past
        // LMDB's 511-byte keys unless hashed.
        let long = String(repeating: "/", count: 180) + "@example.org"
        try await fixture.append(H.register("ann"))
        try await fixture.append(H.create("g1", "Long"), H.invite("g1", long))
        #expect(try fixture.albums.group("g1")?.members.map(\.email) == [long, "ann@example.org"], "by address, bytewise")
        try await fixture.append(H.register("lee", email: long))
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

    @Test func twoUsersShareAGroupWhileBothAddressesAreMembers() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob"), H.register("eve"))
        try await fixture.append(H.create("g1", "One"), H.create("g2", "Two", owner: "bob"), H.invite("g1", "bob@example.org"))
        #expect(try q.shareAGroup("ann", "bob"))
        #expect(try q.shareAGroup("bob", "ann"))
        #expect(try q.shareAGroup("ann", "eve") == false)
        #expect(try q.shareAGroup("ann", "nobody") == false)
        try await fixture.append(H.leave("g1", "bob"))
        #expect(try q.shareAGroup("ann", "bob") == false, "bob's own group g2 is not ann's")
    }
}
