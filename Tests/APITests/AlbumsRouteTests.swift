import Albums
import EventSourcing
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import API

/// The albums routes over HTTP: groups joined by e-mail invitation claimed with a verified
/// address, photos of one's own uploads, chat, leaving, and the 404 every outsider gets.
@Suite("Albums routes", .timeLimit(.minutes(3)))
struct AlbumsRouteTests {
    @Test func aGroupLivesFromCreationThroughInvitationPhotosAndChatToItsLastMemberLeaving() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (annId, ann) = try await client.register("ann@example.org", displayName: "Ann")
            let (_, eve) = try await client.register("eve@example.org", displayName: "Eve")
            let created = try await client.send(.post, "/v1/groups", json: ["name": "  Holiday  "], token: ann)
            #expect(created.status == .created, "\(created.text)")
            let groupId = try #require(created.json["groupId"] as? String)
            #expect(created.json["events"] as? [String] == ["albums.groupCreated"])
            let group = "/v1/groups/\(groupId)"
            #expect(try await client.send(.post, "/v1/groups", json: ["name": "HOLIDAY"], token: ann).code == "group_name_taken")
            #expect(try await client.send(.post, "/v1/groups", json: ["name": "Holiday"], token: eve).status == .created)

            // Bob is invited before he has an account, and is a member once he registers and verifies.
            let invited = try await client.send(.post, "\(group)/members", json: ["email": " Bob@Example.org "], token: ann)
            #expect(invited.status == .created && invited.json["events"] as? [String] == ["albums.memberInvited"], "\(invited.text)")
            let again = try await client.send(.post, "\(group)/members", json: ["email": "bob@example.org"], token: ann)
            #expect(again.status == .conflict && again.code == "already_invited")
            var shown = try await client.send(.get, group, token: ann)
            #expect(shown.json["name"] as? String == "Holiday" && shown.json["ownerId"] as? String == annId)
            #expect(shown.list("members").map { $0["email"] as? String } == ["ann@example.org", "bob@example.org"])
            #expect(shown.list("members").last?["userId"] == nil)
            let (bobId, bob) = try await client.register("bob@example.org", displayName: "Bob")
            #expect(try await client.send(.get, "/v1/groups", token: bob).list("items").isEmpty, "not verified yet")
            #expect(try await client.send(.get, group, token: bob).code == "group_not_found")
            try await server.verifyEmail("bob@example.org", token: bob, with: client)
            let bobsGroups = try await client.send(.get, "/v1/groups", token: bob)
            #expect(bobsGroups.list("items").map { $0["groupId"] as? String } == [groupId])
            #expect(bobsGroups.list("items").first?["memberCount"] as? Int == 2)
            shown = try await client.send(.get, group, token: bob)
            #expect(shown.list("members").last?["userId"] as? String == bobId && shown.list("members").last?["displayName"] as? String == "Bob")

            // Photos: of one's own uploads only; deleted only by who added them.
            let annImage = try await client.uploadedBlob(TestImages.png(10), token: ann)
            let bobImage = try await client.uploadedBlob(TestImages.png(20), token: bob)
            let photo = try await client.send(.post, "\(group)/photos", json: ["blobId": annImage, "description": "The beach"], token: ann)
            #expect(photo.status == .created, "\(photo.text)")
            let photoId = try #require(photo.json["photoId"] as? String)
            let notHers = try await client.send(.post, "\(group)/photos", json: ["blobId": bobImage, "description": "Taken"], token: ann)
            #expect(notHers.status == .unprocessableContent && notHers.fieldsInError == ["blobId"], "\(notHers.text)")
            let bobsPhoto = try await client.send(.post, "\(group)/photos", json: ["blobId": bobImage, "description": "Dunes"], token: bob)
            let bobsPhotoId = try #require(bobsPhoto.json["photoId"] as? String)
            let photos = try await client.send(.get, "\(group)/photos", token: bob)
            #expect(photos.list("items").map { $0["photoId"] as? String } == [bobsPhotoId, photoId])
            let one = try await client.send(.get, "\(group)/photos/\(photoId)", token: bob)
            #expect(one.json["description"] as? String == "The beach" && one.json["addedBy"] as? String == annId)
            #expect(one.json["addedByName"] as? String == "Ann" && one.json["blobId"] as? String == annImage)
            // Bob sees Ann's image through the photo; Eve does not.
            #expect(try await client.blob(annImage, token: bob).status == .ok)
            #expect(try await client.blob(annImage, token: eve).code == "blob_not_found")
            let notHis = try await client.send(.delete, "\(group)/photos/\(photoId)", token: bob)
            #expect(notHis.status == .forbidden && notHis.code == "not_the_owner")
            #expect(try await client.send(.get, "\(group)/photos/\(UUID().uuidString.lowercased())", token: bob).code == "photo_not_found")
            #expect(try await client.send(.delete, "\(group)/photos/\(bobsPhotoId)", token: bob).status == .noContent)
            #expect(try await client.send(.get, "\(group)/photos/\(bobsPhotoId)", token: bob).code == "photo_not_found")

            // Chat, newest first, paged.
            for text in ["one", "two", "three"] {
                let posted = try await client.send(.post, "\(group)/messages", json: ["text": text], token: bob)
                #expect(posted.status == .created && posted.json["messageId"] is String, "\(posted.text)")
            }
            let firstPage = try await client.send(.get, "\(group)/messages?limit=2", token: ann)
            #expect(firstPage.list("items").map { $0["text"] as? String } == ["three", "two"])
            #expect(firstPage.list("items").first?["authorName"] as? String == "Bob")
            let next = try #require(firstPage.json["next"] as? String)
            let lastPage = try await client.send(.get, "\(group)/messages?limit=2&cursor=\(next)", token: ann)
            #expect(lastPage.list("items").map { $0["text"] as? String } == ["one"] && lastPage.json["next"] == nil)

            // The last member leaving deletes the group: its photos' images go with it.
            #expect(try await client.send(.post, "\(group)/leave", token: ann).status == .noContent)
            #expect(try await client.send(.get, group, token: ann).code == "group_not_found")
            #expect(try await client.blob(annImage, token: bob).status == .ok, "still a member")
            #expect(try await client.send(.post, "\(group)/leave", token: bob).status == .noContent)
            #expect(try await client.send(.get, "/v1/groups", token: bob).list("items").isEmpty)
            #expect(try await client.blob(annImage, token: bob).code == "blob_not_found")
            #expect(try await client.blob(annImage, token: ann).status == .ok, "the uploader keeps her image")
            // Its name is free for Ann again.
            #expect(try await client.send(.post, "/v1/groups", json: ["name": "Holiday"], token: ann).status == .created)
        }
    }

    /// Every group route answers an outsider, and an unknown group, 404 group_not_found.
    @Test func anOutsiderGetsNotFoundOnEveryGroupRoute() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (_, eve) = try await client.register("eve@example.org", displayName: "Eve")
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Private"], token: ann).json["groupId"] as? String)
            let image = try await client.uploadedBlob(TestImages.png(30), token: ann)
            let photoId = try #require(try await client.send(.post, "/v1/groups/\(groupId)/photos", json: [
                "blobId": image, "description": "Secret"], token: ann).json["photoId"] as? String)
            let evesImage = try await client.uploadedBlob(TestImages.png(31), token: eve)
            for id in [groupId, UUID().uuidString.lowercased()] {
                let group = "/v1/groups/\(id)"
                let requests: [(HTTPRequest.Method, String, [String: Any]?)] = [
                    (.get, group, nil), (.post, "\(group)/members", ["email": "eve2@example.org"]),
                    (.post, "\(group)/photos", ["blobId": evesImage, "description": "Mine"]), (.get, "\(group)/photos", nil),
                    (.get, "\(group)/photos/\(photoId)", nil), (.delete, "\(group)/photos/\(photoId)", nil),
                    (.post, "\(group)/leave", nil), (.post, "\(group)/messages", ["text": "hello"]), (.get, "\(group)/messages", nil),
                ]
                for (method, path, body) in requests {
                    let reply = try await client.send(method, path, json: body, token: eve)
                    #expect(reply.status == .notFound && reply.code == "group_not_found", "\(method) \(path): \(reply.text)")
                }
            }
            #expect(try await client.send(.get, "/v1/groups/\(groupId)/photos/\(photoId)", token: ann).status == .ok, "nothing changed")
            #expect(try await client.send(.get, "/v1/groups", token: eve).list("items").isEmpty)
            #expect(try await client.send(.get, "/v1/groups").status == .unauthorized)
        }
    }

    @Test func malformedInputIsRefusedAndNamesTheField() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            #expect(try await client.send(.post, "/v1/groups", json: [:], token: ann).code == "malformed_request")
            #expect(try await client.send(.post, "/v1/groups", json: ["name": 42], token: ann).code == "malformed_request")
            let blank = try await client.send(.post, "/v1/groups", json: ["name": "   "], token: ann)
            #expect(blank.status == .unprocessableContent && blank.fieldsInError == ["name"])
            let long = try await client.send(.post, "/v1/groups", json: ["name": String(repeating: "x", count: 101)], token: ann)
            #expect(long.status == .unprocessableContent && long.fieldsInError == ["name"])
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "G"], token: ann).json["groupId"] as? String)
            let group = "/v1/groups/\(groupId)"
            #expect(try await client.send(.post, "\(group)/members", json: ["email": "no-at-sign"], token: ann).fieldsInError == ["email"])
            #expect(try await client.send(.post, "\(group)/members", json: [:], token: ann).code == "malformed_request")
            let image = try await client.uploadedBlob(TestImages.png(40), token: ann)
            for blobId in ["", "xyz", String(repeating: "0", count: 64), image.uppercased()] {
                let reply = try await client.send(.post, "\(group)/photos", json: ["blobId": blobId, "description": "d"], token: ann)
                #expect(reply.status == .unprocessableContent && reply.fieldsInError == ["blobId"], "\(blobId): \(reply.text)")
            }
            let noDescription = try await client.send(.post, "\(group)/photos", json: ["blobId": image, "description": " "], token: ann)
            #expect(noDescription.status == .unprocessableContent && noDescription.fieldsInError == ["description"])
            let huge = try await client.send(.post, "\(group)/messages", json: ["text": String(repeating: "y", count: 4_001)], token: ann)
            #expect(huge.status == .unprocessableContent && huge.fieldsInError == ["text"])
            #expect(try await client.send(.get, "\(group)/photos?limit=0", token: ann).code == "invalid_limit")
            #expect(try await client.send(.get, "\(group)/messages?cursor=nonsense", token: ann).code == "invalid_cursor")
        }
    }

    /// Erasing an account erases its current address's invitations too: they are sealed under
    /// the address's own subject, whose key goes with the account's.
    @Test func erasingAnAccountErasesItsAddresssInvitations() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "G"], token: ann).json["groupId"] as? String)
            #expect(try await client.send(.post, "/v1/groups/\(groupId)/members", json: ["email": "bob@example.org"], token: ann).status == .created)
            let (_, bob) = try await client.register("bob@example.org", displayName: "Bob")
            let sealer = server.runtime.commands.sealer
            let subject = AlbumsNames.inviteeSubject(email: "bob@example.org", sealedBy: sealer)
            #expect(try !server.runtime.personalData.isErased(subject))
            let erased = try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: bob)
            #expect(erased.status == .noContent, "\(erased.text)")
            #expect(try server.runtime.personalData.isErased(subject))
            #expect(try !server.runtime.personalData.isErased(AlbumsNames.inviteeSubject(email: "ann@example.org", sealedBy: sealer)))
        }
    }
}
