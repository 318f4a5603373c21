import Albums
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// Issue 48 item 1: an invitation to a photo group grants nothing until an account that has
/// verified its address claims it, and from then on the membership is that account's. Each test
/// is the attack as the hostile client ran it.
@Suite("Albums: invitations claimed by a verified address", .timeLimit(.minutes(3)))
struct AlbumsInvitationClaimTests {
    /// Mallory changes her e-mail to an invited address no account has: she gets nothing of the
    /// group (before the fix: its members' e-mails and its chat), and without the mail sent to
    /// that address she cannot verify it.
    @Test func changingOnesEmailToAnInvitedAddressGrantsNothing() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (_, mallory) = try await client.register("mallory@example.org", displayName: "Mallory")
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Family"], token: ann).json["groupId"] as? String)
            let group = "/v1/groups/\(groupId)"
            #expect(try await client.send(.post, "\(group)/members", json: ["email": "friend@example.org"], token: ann).status == .created)
            #expect(try await client.send(.post, "\(group)/messages", json: ["text": "Our secret plans"], token: ann).status == .created)

            let changed = try await client.send(.patch, "/v1/me", json: ["email": "friend@example.org"], token: mallory)
            #expect(changed.status == .ok && changed.json["emailVerified"] as? Bool == false, "\(changed.text)")
            for path in [group, "\(group)/messages", "\(group)/photos"] {
                let reply = try await client.send(.get, path, token: mallory)
                #expect(reply.status == .notFound && reply.code == "group_not_found", "\(path): \(reply.text)")
            }
            #expect(try await client.send(.get, "/v1/groups", token: mallory).list("items").isEmpty)
            #expect(try await client.send(.post, "\(group)/messages", json: ["text": "hi"], token: mallory).code == "group_not_found")
            // Asking for another mail sends it to the address, where she cannot read it; a made-up
            // token verifies nothing.
            #expect(try await client.send(.post, "/v1/me/email-verification", token: mallory).status == .accepted)
            let guessed = try await client.send(.post, "/v1/email-verifications/\(AuthTokens.random())", token: mallory)
            #expect(guessed.status == .notFound && guessed.code == "invalid_verification_token")
            #expect(try await client.send(.get, group, token: mallory).code == "group_not_found")
            // The group shows the invitation as the address alone.
            let shown = try await client.send(.get, group, token: ann)
            let invitation = try #require(shown.list("members").first { $0["email"] as? String == "friend@example.org" })
            #expect(invitation["userId"] == nil && invitation["displayName"] == nil)

            // The other way round: she takes an address first, then it is invited.
            #expect(try await client.send(.patch, "/v1/me", json: ["email": "cousin@example.org"], token: mallory).status == .ok)
            #expect(try await client.send(.post, "\(group)/members", json: ["email": "cousin@example.org"], token: ann).status == .created)
            #expect(try await client.send(.get, group, token: mallory).code == "group_not_found")
            #expect(try await client.send(.post, "/v1/me/email-verification", token: mallory).status == .accepted)
            #expect(try await client.send(.get, "/v1/groups", token: mallory).list("items").isEmpty)
        }
    }

    /// An address a member gave up: the newcomer who takes it, and verifies it, does not take the
    /// member's place; the member keeps the group under the new address.
    @Test func anAddressAMemberGaveUpHandsNothingOn() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (bobId, bob) = try await server.registerVerified("bob@example.org", displayName: "Bob", with: client)
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Band"], token: ann).json["groupId"] as? String)
            let group = "/v1/groups/\(groupId)"
            let invited = try await client.send(.post, "\(group)/members", json: ["email": "bob@example.org"], token: ann)
            #expect(invited.status == .created, "\(invited.text)")
            #expect(try await client.send(.get, group, token: bob).status == .ok, "claimed at once: his address was verified")

            #expect(try await client.send(.patch, "/v1/me", json: ["email": "robert@example.org"], token: bob).status == .ok)
            #expect(try await client.send(.get, group, token: bob).status == .ok, "changing e-mail does not lose it")
            let (_, mallory) = try await server.registerVerified("bob@example.org", displayName: "Mallory", with: client)
            #expect(try await client.send(.get, group, token: mallory).code == "group_not_found")
            #expect(try await client.send(.get, "/v1/groups", token: mallory).list("items").isEmpty)
            let members = try await client.send(.get, group, token: ann).list("members")
            #expect(members.map { $0["userId"] as? String }.contains(bobId))
            #expect(!members.contains { $0["displayName"] as? String == "Mallory" })
        }
    }

    /// An invitation to an address no one has verified is claimed whenever its holder verifies
    /// it, and then the group is theirs to see and use.
    @Test func anInvitationIsClaimedWhenItsAddressIsVerifiedLater() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Trip"], token: ann).json["groupId"] as? String)
            let group = "/v1/groups/\(groupId)"
            #expect(try await client.send(.post, "\(group)/members", json: ["email": "cat@example.org"], token: ann).status == .created)
            let (catId, cat) = try await client.register("cat@example.org", displayName: "Cat")
            #expect(try await client.send(.get, group, token: cat).code == "group_not_found", "unverified")
            #expect(try await client.send(.get, group, token: ann).list("members").first { $0["email"] as? String == "cat@example.org" }?["userId"] == nil,
                    "an unverified holder is not shown: inviting reveals nothing about who is registered")

            try await server.verifyEmail("cat@example.org", token: cat, with: client)
            #expect(try await client.send(.get, "/v1/groups", token: cat).list("items").map { $0["groupId"] as? String } == [groupId])
            #expect(try await client.send(.post, "\(group)/messages", json: ["text": "Hi all"], token: cat).status == .created)
            let member = try #require(try await client.send(.get, group, token: ann).list("members").first { $0["email"] as? String == "cat@example.org" })
            #expect(member["userId"] as? String == catId && member["displayName"] as? String == "Cat")
            let again = try await client.send(.post, "\(group)/members", json: ["email": "cat@example.org"], token: ann)
            #expect(again.status == .conflict && again.code == "already_invited")
        }
    }

    /// An erased member leaves her groups first: the albums' decisions see no erasure, and an
    /// erased member must not keep a group alive that its last live member leaves.
    @Test func anErasedMemberLeavesHerGroupsAndHerLastGroupGoesWithHer() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (_, bob) = try await server.registerVerified("bob@example.org", displayName: "Bob", with: client)
            let shared = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Shared"], token: ann).json["groupId"] as? String)
            #expect(try await client.send(.post, "/v1/groups/\(shared)/members", json: ["email": "bob@example.org"], token: ann).status == .created)
            let own = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Bob's"], token: bob).json["groupId"] as? String)

            #expect(try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: bob).status == .noContent)
            let types = { (groupId: String) in try server.runtime.log.lmdb.readTag(AlbumsEvent.groupTag(groupId), limit: 100).map(\.type) }
            #expect(try types(own) == ["albums.groupCreated", "albums.memberLeft", "albums.groupDeleted"], "her last group goes with her")
            #expect(try server.runtime.albums.group(own) == nil)
            #expect(try types(shared).last == "albums.memberLeft")
            #expect(try await client.send(.get, "/v1/groups/\(shared)", token: ann).list("members").count == 1)
            // Ann, the last live member, leaving deletes the group.
            #expect(try await client.send(.post, "/v1/groups/\(shared)/leave", token: ann).status == .noContent)
            #expect(try types(shared).last == "albums.groupDeleted")
        }
    }
}
