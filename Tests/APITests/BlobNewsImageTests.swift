import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// A news item's image: only one its poster uploaded, served to the members who may read the
/// news item (its location's employees and the admins) and to no one else.
@Suite("News images", .timeLimit(.minutes(3)))
struct BlobNewsImageTests {
    @Test func aNewsImageIsServedToWhoMayReadTheNews() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let fixture = try await WorkplaceRouteFixture.make(client)
            let image = try await client.uploadedBlob(TestImages.png(60), token: fixture.ann.token)
            let evesImage = try await client.uploadedBlob(TestImages.png(61), token: fixture.eve.token)
            let notHers = try await client.send(.post, fixture.path("/news"), json: [
                "locationId": fixture.amsterdam, "title": "T", "text": "x", "imageBlobId": evesImage], token: fixture.ann.token)
            #expect(notHers.status == .unprocessableContent && notHers.fieldsInError == ["imageBlobId"], "\(notHers.text)")
            let malformed = try await client.send(.post, fixture.path("/news"), json: [
                "locationId": fixture.amsterdam, "title": "T", "text": "x", "imageBlobId": "abc"], token: fixture.ann.token)
            #expect(malformed.fieldsInError == ["imageBlobId"])
            let posted = try await client.send(.post, fixture.path("/news"), json: [
                "locationId": fixture.amsterdam, "title": "Party", "text": "Friday", "imageBlobId": image], token: fixture.ann.token)
            #expect(posted.status == .created, "\(posted.text)")
            let newsId = try #require(posted.json["newsId"] as? String)
            let listed = try await client.send(.get, fixture.path("/news"), token: fixture.bob.token)
            #expect(listed.list("items").first?["imageBlobId"] as? String == image)

            #expect(try await client.blob(image, token: fixture.bob.token).status == .ok, "an employee of the location")
            #expect(try await client.blob(image, token: fixture.cat.token).code == "blob_not_found", "another location's")
            #expect(try await client.blob(image, token: fixture.dan.token).code == "blob_not_found", "not accepted yet")
            #expect(try await client.blob(image, token: fixture.eve.token).code == "blob_not_found", "an outsider")
            #expect(try await client.send(.delete, fixture.path("/news/\(newsId)"), token: fixture.ann.token).status == .noContent)
            #expect(try await client.blob(image, token: fixture.bob.token).code == "blob_not_found", "the news is gone")
        }
    }
}
