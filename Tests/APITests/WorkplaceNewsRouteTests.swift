import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// The workplace's news routes through HTTP: admins post to a location and delete; an
/// employee reads only their own location's news; every refusal with its status and code.
@Suite("Workplace news routes", .timeLimit(.minutes(3)))
struct WorkplaceNewsRouteTests {
    @Test func newsIsReadByItsLocationsMembersAndByAdmins() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            var newsIds: [String: String] = [:]
            for (location, title) in [(acme.amsterdam, "Canteen open"), (acme.rotterdam, "Parking closed")] {
                let posted = try await client.send(.post, acme.path("/news"), json: [
                    "locationId": location, "title": title, "text": "Line one\r\nLine two", "imageBlobId": NSNull(),
                ], token: ann)
                #expect(posted.status == .created && posted.json["events"] as? [String] == ["workplace.newsPosted"], "\(posted.text)")
                newsIds[location] = try #require(posted.json["newsId"] as? String)
            }
            // Read-your-writes, and each employee sees only their location's.
            let bobs = try await client.send(.get, acme.path("/news"), token: acme.bob.token)
            #expect(bobs.status == .ok && bobs.items.map { $0["newsId"] as? String } == [newsIds[acme.amsterdam]], "\(bobs.text)")
            let item = try #require(bobs.items.first)
            #expect(item["title"] as? String == "Canteen open" && item["text"] as? String == "Line one\nLine two")
            #expect(item["locationId"] as? String == acme.amsterdam && item["imageBlobId"] == nil && item["postedAt"] is String)
            #expect((item["author"] as? [String: Any])?["name"] as? String == "Ann")
            #expect(try await client.send(.get, acme.path("/news?locationId=\(acme.amsterdam)"), token: acme.bob.token).items.count == 1)
            let cats = try await client.send(.get, acme.path("/news"), token: acme.cat.token)
            #expect(cats.items.map { $0["newsId"] as? String } == [newsIds[acme.rotterdam]])
            let otherLocation = try await client.send(.get, acme.path("/news?locationId=\(acme.rotterdam)"), token: acme.bob.token)
            #expect(otherLocation.status == .forbidden && otherLocation.code == "not_an_admin")

            // Admins read every location's, newest first, or one location's.
            let all = try await client.send(.get, acme.path("/news"), token: ann)
            #expect(all.items.map { $0["newsId"] as? String } == [newsIds[acme.rotterdam], newsIds[acme.amsterdam]])
            #expect(try await client.send(.get, acme.path("/news?locationId=\(acme.rotterdam)"), token: ann).items.count == 1)
            let page = try await client.send(.get, acme.path("/news?limit=1"), token: ann)
            #expect(page.items.count == 1 && page.json["next"] is String)
            let unknownLocation = try await client.send(.get, acme.path("/news?locationId=\(UUID())"), token: ann)
            #expect(unknownLocation.status == .notFound && unknownLocation.code == "location_not_found")
            for outsider in [acme.dan.token, acme.eve.token] {
                let refused = try await client.send(.get, acme.path("/news"), token: outsider)
                #expect(refused.status == .forbidden && refused.code == "not_a_member")
            }

            let deleted = try await client.send(.delete, acme.path("/news/\(newsIds[acme.amsterdam]!)"), token: ann)
            #expect(deleted.status == .noContent)
            #expect(try await client.send(.get, acme.path("/news"), token: acme.bob.token).items.isEmpty)
            let again = try await client.send(.delete, acme.path("/news/\(newsIds[acme.amsterdam]!)"), token: ann)
            #expect(again.status == .notFound && again.code == "news_not_found")
        }
    }

    @Test func postingAndDeletingNewsIsRefusedWithStableCodes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            let news: [String: Any] = ["locationId": acme.amsterdam, "title": "Hello", "text": "World"]
            // An id that names no image the caller uploaded (BlobNewsImageTests has the rest).
            var withImage = news
            withImage["imageBlobId"] = UUID().uuidString.lowercased()
            let image = try await client.send(.post, acme.path("/news"), json: withImage, token: ann)
            #expect(image.status == .unprocessableContent && image.fieldsInError == ["imageBlobId"], "\(image.text)")
            let messages = (image.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(messages == ["Not an image you uploaded (POST /v1/blobs)."])

            let byEmployee = try await client.send(.post, acme.path("/news"), json: news, token: acme.bob.token)
            #expect(byEmployee.status == .forbidden && byEmployee.code == "not_an_admin")
            for outsider in [acme.dan.token, acme.eve.token] {
                let refused = try await client.send(.post, acme.path("/news"), json: news, token: outsider)
                #expect(refused.status == .forbidden && refused.code == "not_a_member")
            }
            var nowhere = news
            nowhere["locationId"] = UUID().uuidString.lowercased()
            let noLocation = try await client.send(.post, acme.path("/news"), json: nowhere, token: ann)
            #expect(noLocation.status == .notFound && noLocation.code == "location_not_found")
            let huge = try await client.send(.post, acme.path("/news"), json: [
                "locationId": acme.amsterdam, "title": String(repeating: "t", count: 100_000), "text": String(repeating: "x", count: 100_000),
            ], token: ann)
            #expect(huge.status == .unprocessableContent && Set(huge.fieldsInError) == ["title", "text"], "\(huge.text)")
            let wrongType = try await client.send(.post, acme.path("/news"), json: ["locationId": acme.amsterdam, "title": 1, "text": "x"], token: ann)
            #expect(wrongType.status == .badRequest && wrongType.code == "malformed_request")

            let posted = try await client.send(.post, acme.path("/news"), json: news, token: ann)
            let newsId = try #require(posted.json["newsId"] as? String, "\(posted.text)")
            let employeeDeletes = try await client.send(.delete, acme.path("/news/\(newsId)"), token: acme.bob.token)
            #expect(employeeDeletes.status == .forbidden && employeeDeletes.code == "not_an_admin")
            let unknown = try await client.send(.delete, acme.path("/news/\(UUID())"), token: ann)
            #expect(unknown.status == .notFound && unknown.code == "news_not_found")
            #expect(try await client.send(.get, acme.path("/news"), token: acme.bob.token).items.count == 1, "only the one posted")

            let key = UUID().uuidString
            let first = try await client.send(.post, acme.path("/news"), json: news, token: ann, key: key)
            let retry = try await client.send(.post, acme.path("/news"), json: news, token: ann, key: key)
            #expect(first.status == .created && retry.json["newsId"] as? String == first.json["newsId"] as? String)
            #expect(try await client.send(.get, acme.path("/news"), token: acme.bob.token).items.count == 2)
        }
    }
}
