import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import API

/// `DELETE /v1/me` is read-your-writes like any command (issue 48 item 2, ADR 0010): when it
/// answers, another member's reads already show none of the erased user's photos, texts or name
/// (asserted without waiting for the background rebuild), the files of her images are gone from
/// `blobs/` unless another live entity shows the same bytes, the texts she wrote in a review
/// read erased, and once the server stops no file of the data directory holds any of her texts.
@Suite("Account erasure at once", .timeLimit(.minutes(3)))
struct AccountErasureAtOnceTests {
    /// Eve's texts, each unique so a byte scan finds only hers.
    private static let marker = "z9k4"
    private static let email = "eve-\(marker)@example.org"
    private static let displayName = "Evelyn \(marker)vane"
    private static let photoDescription = "MARKER-photo-\(marker)"
    private static let chat = "MARKER-chat-\(marker)"
    private static let answer = "MARKER-answer-\(marker)"
    private static let remark = "MARKER-remark-\(marker)"
    private static let secrets = [email, displayName, photoDescription, chat, answer, remark, marker]

    @Test func whenTheErasureAnswersNoneOfHerPhotosTextsImagesOrNameRemain() async throws {
        let directory = NSTemporaryDirectory() + "erasure-at-once-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try LogbookRuntime.forTests(on: directory, unsafeNoSync: false) { $0.operatorToken = nil }
        let blobs = directory + "/blobs"
        @Sendable func file(_ blobId: String) -> String { "\(blobs)/\(blobId.prefix(2))/\(blobId)" }

        try await runtime.serveForTests(logger: Logger(label: "erasure-at-once")) { client in
            let eve = try await client.register(Self.email, displayName: Self.displayName)
            // Only a verified address claims an invitation (issue 48 item 1).
            try await runtime.verifyEmail(Self.email, token: eve.token, with: client)
            let bob = try await client.register("bob@example.org", displayName: "Bob")

            // Albums: Bob's group, Eve invited; her photo, her chat message, her avatar, and a
            // photo of hers whose bytes Bob's own photo shows too.
            let created = try await client.send(.post, "/v1/groups", json: ["name": "Holiday"], token: bob.token)
            let groupId = try #require(created.json["groupId"] as? String, "\(created.text)")
            let group = "/v1/groups/\(groupId)"
            try #require(try await client.send(.post, "\(group)/members", json: ["email": Self.email], token: bob.token).status == .created)
            let hers = try await client.uploadedBlob(TestImages.png(71), token: eve.token)
            let shared = try await client.uploadedBlob(TestImages.png(72), token: eve.token)
            #expect(try await client.uploadedBlob(TestImages.png(72), token: bob.token) == shared)
            for (blobId, description) in [(hers, Self.photoDescription), (shared, "Also \(Self.photoDescription)")] {
                let added = try await client.send(.post, "\(group)/photos", json: ["blobId": blobId, "description": description], token: eve.token)
                try #require(added.status == .created, "\(added.text)")
            }
            let bobsPhoto = try await client.send(.post, "\(group)/photos", json: ["blobId": shared, "description": "Dunes"], token: bob.token)
            let bobsPhotoId = try #require(bobsPhoto.json["photoId"] as? String, "\(bobsPhoto.text)")
            try #require(try await client.send(.post, "\(group)/messages", json: ["text": Self.chat], token: eve.token).status == .created)
            try #require(try await client.send(.post, "\(group)/messages", json: ["text": "Lovely"], token: bob.token).status == .created)
            let avatar = try await client.upload(TestImages.png(73), token: eve.token, method: .put, uri: "/v1/me/avatar")
            let avatarId = try #require(avatar.json["avatarBlobId"] as? String, "\(avatar.text)")

            // Workplace: Eve's organisation; she reviews Bob, with a text answer and a remark.
            let organisation = try await Self.reviewOfBob(client, admin: eve.token, bob: bob)
            let before = try await Self.reads(client, bob: bob.token, group: group, review: organisation)
            #expect(before.photoTexts.contains(Self.photoDescription) && before.photoTexts.contains(Self.displayName))
            #expect(before.reviewTexts == [Self.answer, Self.remark, Self.displayName])
            for blobId in [hers, shared, avatarId] { #expect(FileManager.default.fileExists(atPath: file(blobId))) }

            try #require(try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: eve.token).status == .noContent)

            // At once, without waiting for the background rebuild.
            let after = try await Self.reads(client, bob: bob.token, group: group, review: organisation)
            #expect(after.photoIds == [bobsPhotoId], "her photos left the group: \(after.photoTexts)")
            #expect(!after.photoTexts.contains { text in Self.secrets.contains { text.contains($0) } }, "\(after.photoTexts)")
            #expect(after.messages == ["Lovely", ""] && after.messageAuthors == ["Bob", "Deleted user"])
            #expect(after.memberEmails == ["bob@example.org"], "her address is no member")
            #expect(after.reviewTexts == ["", "", "Deleted user"], "what she wrote in the review reads erased")
            #expect(!FileManager.default.fileExists(atPath: file(hers)), "her photo's bytes are deleted")
            #expect(!FileManager.default.fileExists(atPath: file(avatarId)), "her avatar's bytes are deleted")
            #expect(FileManager.default.fileExists(atPath: file(shared)), "bytes Bob's photo shows stay")
            #expect(try await client.blob(shared, token: bob.token).status == .ok)
            await runtime.readModelsScrubbed()
            #expect(try await Self.reads(client, bob: bob.token, group: group, review: organisation) == after, "the rebuild agrees")
        }
        runtime.close()

        // Stopped: no file holds any of her texts (all written by this release).
        let found = try Self.scan(directory, for: Self.secrets.map { Data($0.utf8) })
        #expect(found.isEmpty, "personal data of the erased user on disk: \(found)")
    }

    // MARK: Helpers

    private struct Reads: Equatable {
        var photoIds: [String]
        var photoTexts: [String]
        var messages: [String]
        var messageAuthors: [String]
        var memberEmails: [String]
        /// The review's text answer, remark and reviewer, as Bob reads it.
        var reviewTexts: [String]
    }

    private static func reads(_ client: any TestClientProtocol, bob: String, group: String, review: String) async throws -> Reads {
        let photos = try await client.send(.get, "\(group)/photos", token: bob).list("items")
        let messages = try await client.send(.get, "\(group)/messages", token: bob).list("items")
        let members = try await client.send(.get, group, token: bob).list("members")
        let shown = try await client.send(.get, review, token: bob)
        try #require(shown.status == .ok, "\(shown.text)")
        let answers = (shown.json["answers"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "text" }
        return Reads(
            photoIds: photos.compactMap { $0["photoId"] as? String },
            photoTexts: photos.flatMap { [$0["description"] as? String ?? "", $0["addedByName"] as? String ?? ""] },
            messages: messages.compactMap { $0["text"] as? String }, messageAuthors: messages.compactMap { $0["authorName"] as? String },
            memberEmails: members.compactMap { $0["email"] as? String },
            reviewTexts: answers.compactMap { $0["value"] as? String } + [shown.json["remark"] as? String ?? "absent",
                                                                          (shown.json["reviewer"] as? [String: Any])?["name"] as? String ?? "absent"])
    }

    /// Eve's organisation with Bob a member and Eve's review of him; the review's path.
    private static func reviewOfBob(_ client: any TestClientProtocol, admin: String, bob: (userId: String, token: String)) async throws -> String {
        let registered = try await client.send(.post, "/v1/organisations", json: [
            "name": "Acme", "locations": [["name": "HQ"]],
        ], token: admin)
        let organisationId = try #require(registered.json["organisationId"] as? String, "\(registered.text)")
        let locationId = try #require((registered.json["locations"] as? [[String: Any]])?.first?["locationId"] as? String)
        let organisation = "/v1/organisations/\(organisationId)"
        let asked = try await client.send(.post, "\(organisation)/join-requests", json: ["locationId": locationId, "employeeNumber": "E-1", "name": "Bob"], token: bob.token)
        try #require(asked.status == .created, "\(asked.text)")
        try #require(try await client.send(.post, "\(organisation)/join-requests/\(bob.userId)/accept", token: admin).status == .ok)
        let form = try await client.send(.post, "\(organisation)/forms", json: [
            "name": "Yearly", "questions": [["text": "How well?", "kind": "rating"], ["text": "What went well?", "kind": "text"]],
        ], token: admin)
        let questionIds = (form.json["questions"] as? [[String: Any]] ?? []).compactMap { $0["questionId"] as? String }
        try #require(questionIds.count == 2, "\(form.text)")
        let review = try await client.send(.post, "\(organisation)/reviews", json: [
            "employeeId": bob.userId, "formId": try #require(form.json["formId"] as? String),
            "answers": [["questionId": questionIds[0], "rating": 5], ["questionId": questionIds[1], "text": answer]], "remark": remark,
        ], token: admin)
        return "\(organisation)/reviews/\(try #require(review.json["reviewId"] as? String, "\(review.text)"))"
    }

    /// Every file under `directory` whose bytes contain one of `needles`: path → needle index.
    private static func scan(_ directory: String, for needles: [Data]) throws -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory))
        while let relative = enumerator.nextObject() as? String {
            let path = (directory as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for (index, needle) in needles.enumerated() where bytes.range(of: needle) != nil { found[relative, default: []].append(index) }
        }
        return found
    }
}
