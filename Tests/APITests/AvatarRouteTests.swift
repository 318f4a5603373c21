import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import API

/// `PUT /v1/me/avatar`: the image stored, its upload recorded, the profile showing it, and the
/// image served to the people one shares something with and to no one else.
@Suite("Avatar route", .timeLimit(.minutes(3)))
struct AvatarRouteTests {
    @Test func anAvatarIsShownOnTheProfileAndServedToAHousemateButNotToAStranger() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (_, bob) = try await client.register("bob@example.org", displayName: "Bob")
            let (_, eve) = try await client.register("eve@example.org", displayName: "Eve")
            let house = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let code = try #require(house.json["joinCode"] as? String)
            #expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: bob).status == .ok)

            let image = TestImages.png(90)
            let set = try await client.upload(image, token: ann, method: .put, uri: "/v1/me/avatar")
            #expect(set.status == .ok, "\(set.text)")
            let blobId = TestImages.id(image)
            #expect(set.json["avatarBlobId"] as? String == blobId && set.json["contentType"] as? String == "image/png")
            #expect(set.json["events"] as? [String] == ["blob.uploaded", "account.avatarChanged"])
            #expect(try await client.me(ann).json["avatarBlobId"] as? String == blobId)
            #expect(try await client.me(bob).json["avatarBlobId"] == nil)

            let seen = try await client.blob(blobId, token: bob)
            #expect(seen.status == .ok && seen.body == image)
            #expect(try await client.blob(blobId, token: eve).code == "blob_not_found")

            // A new avatar replaces it: the old image is no longer shown to the housemate.
            let newer = try await client.upload(TestImages.png(91), token: ann, method: .put, uri: "/v1/me/avatar")
            #expect(newer.status == .ok)
            #expect(try await client.blob(blobId, token: bob).code == "blob_not_found")
            #expect(try await client.blob(TestImages.id(TestImages.png(91)), token: bob).status == .ok)
            #expect(try await client.blob(blobId, token: ann).status == .ok, "the uploader keeps it")

            // Refusals as for any upload; the profile keeps its avatar.
            #expect(try await client.upload(Data("text".utf8), token: ann, method: .put, uri: "/v1/me/avatar").status == .unsupportedMediaType)
            #expect(try await client.upload(Data(), token: ann, method: .put, uri: "/v1/me/avatar").status == .unprocessableContent)
            let huge = try await client.upload(TestImages.jpeg(count: 11 << 20), token: ann, contentType: "image/jpeg", method: .put, uri: "/v1/me/avatar")
            #expect(huge.status == .contentTooLarge && huge.code == "payload_too_large")
            #expect(try await client.me(ann).json["avatarBlobId"] as? String == TestImages.id(TestImages.png(91)))
            #expect(try await client.upload(image, token: "nope", method: .put, uri: "/v1/me/avatar").status == .unauthorized)
        }
    }

    /// Sharing a photo group, a neighbourhood (postcode) or a quiz game opens an avatar too.
    @Test func anAvatarIsServedToGroupMembersAndNeighbours() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org", extra: ["postcode": "1012AB"])
            let (_, bob) = try await server.registerVerified("bob@example.org", displayName: "Bob", with: client)
            let (_, cat) = try await client.register("cat@example.org", displayName: "Cat", extra: ["postcode": "1012AB"])
            let (_, eve) = try await client.register("eve@example.org", displayName: "Eve", extra: ["postcode": "9999ZZ"])
            let avatar = TestImages.png(95)
            #expect(try await client.upload(avatar, token: ann, method: .put, uri: "/v1/me/avatar").status == .ok)
            let blobId = TestImages.id(avatar)
            #expect(try await client.blob(blobId, token: bob).code == "blob_not_found")
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "G"], token: ann).json["groupId"] as? String)
            #expect(try await client.send(.post, "/v1/groups/\(groupId)/members", json: ["email": "bob@example.org"], token: ann).status == .created)
            #expect(try await client.blob(blobId, token: bob).status == .ok, "a group member")
            #expect(try await client.blob(blobId, token: cat).status == .ok, "a neighbour")
            #expect(try await client.blob(blobId, token: eve).code == "blob_not_found")
            #expect(try await client.send(.post, "/v1/groups/\(groupId)/leave", token: bob).status == .noContent)
            #expect(try await client.blob(blobId, token: bob).code == "blob_not_found", "left the group")
        }
    }

    /// Two accepted members of one organisation see each other's avatars, at any location; a
    /// pending requester and a stranger do not, and a removed member stops seeing them.
    @Test func anAvatarIsServedToColleaguesButNotToARequesterOrAStranger() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let avatar = TestImages.png(98)
            let set = try await client.upload(avatar, token: acme.bob.token, method: .put, uri: "/v1/me/avatar")
            #expect(set.status == .ok, "\(set.text)")
            let blobId = TestImages.id(avatar)

            let colleague = try await client.blob(blobId, token: acme.cat.token)
            #expect(colleague.status == .ok && colleague.body == avatar, "an employee at another location: \(colleague.text)")
            #expect(try await client.blob(blobId, token: acme.ann.token).status == .ok, "the admin who registered it")
            #expect(try await client.blob(blobId, token: acme.dan.token).code == "blob_not_found", "a pending request is no membership")
            #expect(try await client.blob(blobId, token: acme.eve.token).code == "blob_not_found", "a stranger")

            // Both ways: the requester's own avatar is not shown to the members either.
            let dans = TestImages.png(99)
            #expect(try await client.upload(dans, token: acme.dan.token, method: .put, uri: "/v1/me/avatar").status == .ok)
            #expect(try await client.blob(TestImages.id(dans), token: acme.bob.token).code == "blob_not_found")

            let removed = try await client.send(.delete, acme.path("/members/\(acme.cat.userId)"), token: acme.ann.token)
            #expect(removed.status == .noContent, "\(removed.text)")
            #expect(try await client.blob(blobId, token: acme.cat.token).code == "blob_not_found", "removed from the organisation")
            #expect(try await client.blob(blobId, token: acme.ann.token).status == .ok)

            // Accepted at last: the former requester sees it now.
            let accepted = try await client.send(.post, acme.path("/join-requests/\(acme.dan.userId)/accept"), token: acme.ann.token)
            #expect(accepted.status == .ok, "\(accepted.text)")
            #expect(try await client.blob(blobId, token: acme.dan.token).status == .ok)
        }
    }

    /// Retrying with the same Idempotency-Key answers the same, though the route runs two commands.
    @Test func anIdempotencyKeyRetriesBothCommandsOfTheAvatar() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let key = UUID().uuidString
            let first = try await client.upload(TestImages.png(96), token: ann, method: .put, uri: "/v1/me/avatar", key: key)
            let retry = try await client.upload(TestImages.png(96), token: ann, method: .put, uri: "/v1/me/avatar", key: key)
            #expect(first.status == .ok && retry.status == .ok, "\(retry.text)")
            #expect(retry.json["position"] as? Int == first.json["position"] as? Int)
            #expect(retry.json["events"] as? [String] == ["blob.uploaded", "account.avatarChanged"])
            let other = try await client.upload(TestImages.png(97), token: ann, method: .put, uri: "/v1/me/avatar", key: key)
            #expect(other.status == .unprocessableContent && other.code == "idempotency_key_reused", "\(other.text)")
            #expect(try await client.me(ann).json["avatarBlobId"] as? String == TestImages.id(TestImages.png(96)))
        }
    }
}
