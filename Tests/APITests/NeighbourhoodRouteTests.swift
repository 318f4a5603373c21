import Foundation
import HTTPTypes
import HummingbirdTesting
import Neighbourhood
import Testing
@testable import API

/// The neighbourhood routes through HTTP: neighbours in 1012AB post, reply and follow; Cat in
/// 3011CD sees none of it; every refusal has its status and code.
@Suite("Neighbourhood routes", .timeLimit(.minutes(3)))
struct NeighbourhoodRouteTests {
    private struct Neighbours {
        var ann: String, bob: String, cat: String, reportId: String
    }

    private static var report: [String: Any] { [
        "title": " Bike stolen ", "description": "Outside number 12, last night.", "category": "suspicious",
        "location": ["latitude": 52.3731, "longitude": 4.8922],
    ] }

    /// Ann (who types her postcode loosely) and Bob live in 1012AB, Cat in 3011CD; Ann posted a report.
    private func neighbours(_ client: any TestClientProtocol) async throws -> Neighbours {
        let ann = try await client.register("ann@example.org", displayName: "Ann", extra: ["postcode": " 1012 ab "]).token
        let bob = try await client.register("bob@example.org", displayName: "Bob", extra: ["postcode": "1012AB"]).token
        let cat = try await client.register("cat@example.org", displayName: "Cat", extra: ["postcode": "3011CD"]).token
        #expect(try await client.me(ann).json["postcode"] as? String == "1012AB", "normalised at registration")
        let posted = try await client.send(.post, "/v1/neighbourhood/reports", json: Self.report, token: ann)
        try #require(posted.status == .created, "\(posted.text)")
        #expect(posted.json["events"] as? [String] == ["neighbourhood.reportPosted", "neighbourhood.reportFollowed"])
        #expect((posted.json["position"] as? Int ?? 0) > 0)
        return Neighbours(ann: ann, bob: bob, cat: cat, reportId: try #require(posted.json["reportId"] as? String))
    }

    private func items(_ reply: Reply) -> [[String: Any]] {
        reply.json["items"] as? [[String: Any]] ?? []
    }

    @Test func neighboursPostReplyFollowAndAreNotified() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let n = try await neighbours(client)
            let list = try await client.send(.get, "/v1/neighbourhood/reports", token: n.bob)
            #expect(list.status == .ok && list.json["next"] == nil)
            let item = try #require(items(list).first)
            #expect(item["reportId"] as? String == n.reportId && item["title"] as? String == "Bike stolen")
            #expect(item["category"] as? String == "suspicious" && item["replyCount"] as? Int == 0 && item["following"] as? Bool == false)
            #expect((item["author"] as? [String: Any])?["displayName"] as? String == "Ann")
            #expect((item["location"] as? [String: Any])?["latitude"] as? Double == 52.3731)
            #expect(item["createdAt"] as? String != nil)

            let report = "/v1/neighbourhood/reports/\(n.reportId)"
            #expect(try await client.send(.put, "\(report)/follow", token: n.bob).status == .noContent)
            #expect(try await client.send(.put, "\(report)/follow", token: n.bob).status == .noContent, "idempotent")
            let replied = try await client.send(.post, "\(report)/replies", json: ["message": "I saw it too"], token: n.bob)
            #expect(replied.status == .created && replied.json["events"] as? [String] == ["neighbourhood.replyPosted"], "\(replied.text)")
            let replyId = try #require(replied.json["replyId"] as? String)

            let detail = try await client.send(.get, report, token: n.ann)
            #expect(detail.status == .ok && detail.json["followerCount"] as? Int == 2 && detail.json["following"] as? Bool == true)
            #expect(detail.json["replyCount"] as? Int == 1)
            let replies = detail.json["replies"] as? [[String: Any]] ?? []
            #expect(replies.map { $0["replyId"] as? String } == [replyId] && replies.first?["message"] as? String == "I saw it too")
            #expect((replies.first?["author"] as? [String: Any])?["displayName"] as? String == "Bob")

            let annsNews = try await client.send(.get, "/v1/me/notifications", token: n.ann)
            let notice = try #require(items(annsNews).first)
            #expect(notice["kind"] as? String == "reply" && notice["reportId"] as? String == n.reportId && notice["replyId"] as? String == replyId)
            #expect((notice["from"] as? [String: Any])?["displayName"] as? String == "Bob")
            #expect(items(try await client.send(.get, "/v1/me/notifications", token: n.bob)).isEmpty, "not for one's own reply")

            #expect(items(try await client.send(.get, "/v1/neighbourhood/my-reports", token: n.ann)).count == 1)
            #expect(items(try await client.send(.get, "/v1/neighbourhood/my-reports", token: n.bob)).isEmpty)
            let followed = try await client.send(.get, "/v1/neighbourhood/following", token: n.bob)
            #expect(items(followed).map { $0["reportId"] as? String } == [n.reportId] && items(followed).first?["following"] as? Bool == true)
            #expect(items(try await client.send(.get, "/v1/neighbourhood/reports?category=suspicious", token: n.bob)).count == 1)
            #expect(items(try await client.send(.get, "/v1/neighbourhood/reports?category=event", token: n.bob)).isEmpty)
            #expect(try await client.send(.delete, "\(report)/follow", token: n.bob).status == .noContent)
            #expect(try await client.send(.delete, "\(report)/follow", token: n.bob).status == .noContent, "idempotent")
            #expect(items(try await client.send(.get, "/v1/neighbourhood/following", token: n.bob)).isEmpty)
        }
    }

    @Test func theMapIsAGeoJSONFeatureCollection() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let n = try await neighbours(client)
            let map = try await client.send(.get, "/v1/neighbourhood/map", token: n.bob)
            #expect(map.status == .ok && map.headers[.contentType]?.hasPrefix("application/geo+json") == true, "\(map.headers)")
            #expect(map.json["type"] as? String == "FeatureCollection")
            let feature = try #require((map.json["features"] as? [[String: Any]])?.first)
            #expect(feature["type"] as? String == "Feature" && feature["id"] as? String == n.reportId)
            let geometry = feature["geometry"] as? [String: Any]
            #expect(geometry?["type"] as? String == "Point" && geometry?["coordinates"] as? [Double] == [4.8922, 52.3731], "[lon, lat]")
            let properties = feature["properties"] as? [String: Any]
            #expect(properties?["reportId"] as? String == n.reportId && properties?["title"] as? String == "Bike stolen")
            #expect(properties?["category"] as? String == "suspicious")
            let inside = try await client.send(.get, "/v1/neighbourhood/map?bbox=4.8,52.3,4.9,52.4", token: n.bob)
            #expect((inside.json["features"] as? [[String: Any]])?.count == 1)
            let outside = try await client.send(.get, "/v1/neighbourhood/map?bbox=5,52.3,6,52.4", token: n.bob)
            #expect((outside.json["features"] as? [[String: Any]])?.isEmpty == true)
            let crossing = try await client.send(.get, "/v1/neighbourhood/map?bbox=170,-90,5,90", token: n.bob)
            #expect((crossing.json["features"] as? [[String: Any]])?.count == 1, "170°E eastwards across 180° to 5°E")
            let cat = try await client.send(.get, "/v1/neighbourhood/map", token: n.cat)
            #expect((cat.json["features"] as? [[String: Any]])?.isEmpty == true, "another neighbourhood's map")
        }
    }

    @Test func aDeletedReportDisappearsEverywhere() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let n = try await neighbours(client)
            let report = "/v1/neighbourhood/reports/\(n.reportId)"
            _ = try await client.send(.put, "\(report)/follow", token: n.bob)
            _ = try await client.send(.post, "\(report)/replies", json: ["message": "Which bike?"], token: n.bob)
            #expect(items(try await client.send(.get, "/v1/me/notifications", token: n.ann)).count == 1)
            #expect(try await client.send(.delete, report, token: n.ann).status == .noContent)
            for (uri, token) in [("/v1/neighbourhood/reports", n.bob), ("/v1/neighbourhood/following", n.bob),
                                 ("/v1/neighbourhood/my-reports", n.ann), ("/v1/me/notifications", n.ann)] {
                let reply = try await client.send(.get, uri, token: token)
                #expect(reply.status == .ok && items(reply).isEmpty, "\(uri): \(reply.text)")
            }
            #expect((try await client.send(.get, "/v1/neighbourhood/map", token: n.bob).json["features"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, report, token: n.ann).code == "report_not_found")
            #expect(try await client.send(.delete, report, token: n.ann).code == "report_not_found")
        }
    }

    @Test func aNewPostcodeIsANewNeighbourhoodAndReportsStayWhereTheyWerePosted() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let n = try await neighbours(client)
            let catsReport = try await client.send(.post, "/v1/neighbourhood/reports", json: Self.report, token: n.cat)
            let catsId = try #require(catsReport.json["reportId"] as? String)
            let moved = try await client.send(.patch, "/v1/me", json: ["postcode": " 3011 cd "], token: n.ann)
            #expect(moved.status == .ok && moved.json["postcode"] as? String == "3011CD", "normalised at profile update")
            #expect(items(try await client.send(.get, "/v1/neighbourhood/reports", token: n.ann)).map { $0["reportId"] as? String } == [catsId])
            #expect(items(try await client.send(.get, "/v1/neighbourhood/reports", token: n.bob)).map { $0["reportId"] as? String } == [n.reportId])
            #expect(try await client.send(.get, "/v1/neighbourhood/reports/\(n.reportId)", token: n.ann).status == .ok, "her own, from anywhere")
            #expect(items(try await client.send(.get, "/v1/neighbourhood/my-reports", token: n.ann)).count == 1)
            #expect(try await client.send(.put, "/v1/neighbourhood/reports/\(catsId)/follow", token: n.ann).status == .noContent)
            #expect(try await client.send(.get, "/v1/neighbourhood/reports/\(catsId)", token: n.bob).code == "report_not_found")

            let cleared = try await client.send(.patch, "/v1/me", json: ["postcode": ""], token: n.bob)
            #expect(cleared.status == .ok && cleared.json["postcode"] == nil, "\(cleared.text)")
            for reply in [try await client.send(.post, "/v1/neighbourhood/reports", json: Self.report, token: n.bob),
                          try await client.send(.get, "/v1/neighbourhood/reports", token: n.bob),
                          try await client.send(.get, "/v1/neighbourhood/map", token: n.bob),
                          try await client.send(.get, "/v1/neighbourhood/reports/\(n.reportId)", token: n.bob),
                          try await client.send(.put, "/v1/neighbourhood/reports/\(n.reportId)/follow", token: n.bob)] {
                #expect(reply.status == .conflict && reply.code == "no_neighbourhood" && reply.isProblem, "\(reply.text)")
            }
            #expect(try await client.send(.get, "/v1/neighbourhood/my-reports", token: n.bob).status == .ok)
            #expect(try await client.send(.get, "/v1/me/notifications", token: n.bob).status == .ok)
        }
    }

    @Test func refusalsAreProblemsWithStableCodes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let n = try await neighbours(client)
            let report = "/v1/neighbourhood/reports/\(n.reportId)"
            let unknown = "/v1/neighbourhood/reports/\(UUID().uuidString.lowercased())"
            let invalid: [String: Any] = ["title": "", "description": String(repeating: "d", count: 5_001), "category": "gossip",
                                          "location": ["latitude": 91, "longitude": -181]]
            let cases: [(Reply, Int, String)] = [
                (try await client.send(.get, report, token: n.cat), 404, "report_not_found"),
                (try await client.send(.post, "\(report)/replies", json: ["message": "hi"], token: n.cat), 404, "report_not_found"),
                (try await client.send(.put, "\(report)/follow", token: n.cat), 404, "report_not_found"),
                (try await client.send(.delete, "\(report)/follow", token: n.cat), 404, "report_not_found"),
                (try await client.send(.delete, report, token: n.cat), 404, "report_not_found"),
                (try await client.send(.delete, report, token: n.bob), 403, "not_the_author"),
                (try await client.send(.get, unknown, token: n.bob), 404, "report_not_found"),
                (try await client.send(.delete, unknown, token: n.bob), 404, "report_not_found"),
                (try await client.send(.put, "\(unknown)/follow", token: n.bob), 404, "report_not_found"),
                (try await client.send(.post, "\(unknown)/replies", json: ["message": "hi"], token: n.bob), 404, "report_not_found"),
                (try await client.send(.post, "/v1/neighbourhood/reports", json: invalid, token: n.bob), 422, "validation_failed"),
                (try await client.send(.post, "\(report)/replies", json: ["message": "  "], token: n.bob), 422, "validation_failed"),
                (try await client.send(.post, "/v1/neighbourhood/reports", json: ["title": 42], token: n.bob), 400, "malformed_request"),
                (try await client.send(.post, "/v1/neighbourhood/reports", json: ["title": "t", "description": "d", "category": "event",
                                                                                  "location": ["latitude": "north", "longitude": 4]],
                                       token: n.bob), 400, "malformed_request"),
                (try await client.send(.post, "\(report)/replies", json: [:] as [String: Any], token: n.bob), 400, "malformed_request"),
                (try await client.send(.post, "\(report)/replies", raw: "{not json", token: n.bob), 400, "malformed_request"),
                (try await client.send(.get, "/v1/neighbourhood/reports?limit=501", token: n.bob), 400, "invalid_limit"),
                (try await client.send(.get, "/v1/neighbourhood/my-reports?limit=0", token: n.bob), 400, "invalid_limit"),
                (try await client.send(.get, "/v1/neighbourhood/reports?cursor=bogus", token: n.bob), 400, "invalid_cursor"),
                (try await client.send(.get, "/v1/neighbourhood/following?cursor=bogus", token: n.bob), 400, "invalid_cursor"),
                (try await client.send(.get, "/v1/me/notifications?cursor=bogus", token: n.bob), 400, "invalid_cursor"),
                (try await client.send(.get, "/v1/neighbourhood/reports?category=gossip", token: n.bob), 400, "invalid_category"),
                (try await client.send(.get, "/v1/neighbourhood/map?bbox=1,2,3", token: n.bob), 400, "invalid_bbox"),
                (try await client.send(.get, "/v1/neighbourhood/map?bbox=0,10,1,5", token: n.bob), 400, "invalid_bbox"),
                (try await client.send(.get, "/v1/neighbourhood/map?bbox=0,0,181,1", token: n.bob), 400, "invalid_bbox"),
            ]
            for (reply, status, code) in cases {
                #expect(reply.status.code == status && reply.code == code && reply.isProblem, "\(reply.text)")
            }
            let fields = try await client.send(.post, "/v1/neighbourhood/reports", json: invalid, token: n.bob)
            #expect(fields.fieldsInError == ["title", "description", "category", "location.latitude", "location.longitude"])
        }
    }

    @Test func everyRouteNeedsAToken() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let report = "/v1/neighbourhood/reports/\(UUID().uuidString.lowercased())"
            let requests: [(HTTPRequest.Method, String, Any?)] = [
                (.post, "/v1/neighbourhood/reports", Self.report), (.get, "/v1/neighbourhood/reports", nil), (.get, report, nil),
                (.delete, report, nil), (.post, "\(report)/replies", ["message": "hi"]), (.put, "\(report)/follow", nil),
                (.delete, "\(report)/follow", nil), (.get, "/v1/neighbourhood/my-reports", nil), (.get, "/v1/neighbourhood/following", nil),
                (.get, "/v1/neighbourhood/map", nil), (.get, "/v1/me/notifications", nil),
            ]
            for (method, uri, json) in requests {
                let reply = try await client.send(method, uri, json: json)
                #expect(reply.status == .unauthorized && reply.code == "unauthorized", "\(method) \(uri): \(reply.text)")
            }
        }
    }

    @Test func listsPageAndRetriesAnswerWithTheFirstReport() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let n = try await neighbours(client)
            let key = UUID().uuidString
            let first = try await client.send(.post, "/v1/neighbourhood/reports", json: Self.report, token: n.bob, key: key)
            let retry = try await client.send(.post, "/v1/neighbourhood/reports", json: Self.report, token: n.bob, key: key)
            #expect(first.status == .created && retry.status == .created)
            #expect(first.json["reportId"] as? String == retry.json["reportId"] as? String)
            let page = try await client.send(.get, "/v1/neighbourhood/reports?limit=1", token: n.ann)
            #expect(items(page).map { $0["reportId"] as? String } == [first.json["reportId"] as? String])
            let next = try #require(page.json["next"] as? String)
            let rest = try await client.send(.get, "/v1/neighbourhood/reports?limit=1&cursor=\(next)", token: n.ann)
            #expect(items(rest).map { $0["reportId"] as? String } == [n.reportId] && rest.json["next"] == nil)
        }
    }
}

/// The demo data's neighbourhood, as `logbook serve --demo` seeds it.
@Suite("Neighbourhood demo", .timeLimit(.minutes(3)))
struct NeighbourhoodDemoTests {
    @Test func theDemoNeighbourhoodHasReportsRepliesFollowsAndNotifications() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let summary = try #require(try await prepareFirstStart(runtime: server.runtime, demo: true)?.demo)
        #expect(summary.reports == 3)
        try await server.test { client in
            let login = try await client.login("bob@example.org", DemoSeed.password)
            let bob = try #require(login.json["token"] as? String)
            let list = try await client.send(.get, "/v1/neighbourhood/reports", token: bob)
            let items = list.json["items"] as? [[String: Any]] ?? []
            #expect(items.count == 3 && items.map { $0["replyCount"] as? Int } == [0, 1, 2])
            #expect((try await client.send(.get, "/v1/neighbourhood/following", token: bob).json["items"] as? [Any])?.count == 2)
            #expect((try await client.send(.get, "/v1/me/notifications", token: bob).json["items"] as? [Any])?.count == 2)
            #expect((try await client.send(.get, "/v1/neighbourhood/map", token: bob).json["features"] as? [Any])?.count == 3)
        }
    }
}

/// The contract's enums and the domain's spell categories the same, which the routes' mapping
/// relies on.
@Suite("Neighbourhood contract", .timeLimit(.minutes(3)))
struct NeighbourhoodContractTests {
    @Test func everyCategoryOfTheDomainIsOneOfTheContract() {
        let domain = ReportCategory.allCases.map(\.rawValue)
        #expect(domain.compactMap(Components.Schemas.ReportCategory.init(rawValue:)).map(\.rawValue) == domain)
        #expect(Components.Schemas.ReportCategory.allCases.count == domain.count)
    }
}

/// Issue 10 item 4: report titles, descriptions and replies follow the one text policy.
extension NeighbourhoodRouteTests {
    @Test(.timeLimit(.minutes(3)))
    func aTextWithAControlCharacterOrABidiOverrideIsA422NamingTheField() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let n = try await neighbours(client)
            var report = Self.report
            report["title"] = "Bike\u{202E}nelots"
            report["description"] = "Outside\u{0} number 12"
            let posted = try await client.send(.post, "/v1/neighbourhood/reports", json: report, token: n.bob)
            #expect(posted.status == .unprocessableContent && posted.code == "validation_failed" && posted.isProblem, "\(posted.text)")
            #expect(posted.fieldsInError == ["title", "description"])
            let replied = try await client.send(.post, "/v1/neighbourhood/reports/\(n.reportId)/replies",
                                                json: ["message": "hi\u{1B}[8m"], token: n.bob)
            #expect(replied.status == .unprocessableContent && replied.code == "validation_failed" && replied.fieldsInError == ["message"])
            let multiLine = try await client.send(.post, "/v1/neighbourhood/reports/\(n.reportId)/replies",
                                                  json: ["message": "Seen it:\n\tblue bike"], token: n.bob)
            #expect(multiLine.status == .created, "free text keeps line breaks and tabs: \(multiLine.text)")
        }
    }
}
