import Albums
import EventSourcing
import Foundation
import Testing
@testable import API

/// The demo's photo group (issue 13 item 7): Ann's group with Bob, two generated images
/// uploaded through the blob store and added as photos, and a chat.
@Suite("Albums demo", .timeLimit(.minutes(3)))
struct AlbumsDemoTests {
    @Test func theDemoGroupHasAnnAndBobTwoPhotosOfRealImagesAndAChat() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let summary = try #require(try await prepareFirstStart(runtime: server.runtime, demo: true)?.demo)
        let albums = summary.albums
        let ann = summary.accounts[0].userId, bob = summary.accounts[1].userId
        #expect(albums.photoIds.count == 2 && Set(albums.blobIds).count == 2 && albums.messages == 3)
        let recorded = try server.runtime.log.lmdb.readTag(AlbumsEvent.groupTag(albums.groupId), limit: 100)
        #expect(recorded.map(\.type) == [
            "albums.groupCreated", "albums.memberInvited", "albums.invitationClaimed", "albums.photoAdded", "albums.photoAdded",
            "albums.messagePosted", "albums.messagePosted", "albums.messagePosted",
        ])
        #expect(recorded.map(\.actor) == [ann, ann, bob, ann, bob, ann, bob, ann])
        #expect(try server.runtime.albums.isMember(bob, of: albums.groupId))
        for blobId in albums.blobIds {
            let stored = try #require(try server.runtime.blobs.read(blobId))
            #expect(stored.blob.type == .png)
            #expect(TestImages.id(stored.data) == blobId)
        }

        try await server.test { client in
            let bobToken = try #require(try await client.login("bob@example.org", DemoSeed.password).json["token"] as? String)
            let groups = try await client.send(.get, "/v1/groups", token: bobToken)
            #expect(groups.list("items").map { $0["name"] as? String } == [DemoSeed.groupName])
            let photos = try await client.send(.get, "/v1/groups/\(albums.groupId)/photos", token: bobToken)
            #expect(photos.list("items").map { $0["photoId"] as? String } == albums.photoIds.reversed())
            for blobId in albums.blobIds {
                let image = try await client.blob(blobId, token: bobToken)
                #expect(image.status == .ok && image.headers[.contentType] == "image/png")
            }
            #expect(try await client.send(.get, "/v1/groups/\(albums.groupId)/messages", token: bobToken).list("items").count == 3)
        }
    }
}
