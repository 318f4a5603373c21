import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import API

/// Conditional reads (SPEC §1): every read-model GET answers a strong `ETag` that changes exactly
/// when its answer does, an entity GET its stream version, and `If-None-Match` naming the tag
/// answers 304 with no body; problems and live streams are never touched.
@Suite("ETag and 304 on reads", .timeLimit(.minutes(3)))
struct NotModifiedRouteTests {
    /// Every read of every app, with one of everything to show, answers a tag that repeats while
    /// nothing changes, and 304 for it in each form `If-None-Match` may take.
    @Test func everyReadOfEveryAppAnswersATagThatRepeatsAnd304sForIt() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        _ = try await prepareFirstStart(runtime: server.runtime, demo: false)  // the quiz's starter bank
        try await server.test { client in
            let world = try await ReadWorld.make(client)
            #expect(world.gameId != nil, "a game of the starter bank's questions")
            let head = try #require(try await client.send(.get, "/v1/admin/head", token: AdminFixture.operatorToken).json["position"] as? Int)
            var reads = world.routes.map { ($0, world.ann) }
            reads += world.adminRoutes(position: head).map { ($0, AdminFixture.operatorToken) }
            try Self.checkEveryConditionalReadIsListed(reads.map(\.0))
            for (route, token) in reads {
                let first = try await client.conditionalGet(route, token: token)
                let tag = try #require(first.headers[.eTag], "\(route): \(first.status) \(first.text)")
                #expect(first.status == .ok && tag.hasPrefix("\"") && tag.hasSuffix("\""), "\(route): a strong tag, \(tag)")
                let again = try await client.conditionalGet(route, token: token)
                #expect(again.headers[.eTag] == tag && again.body == first.body, "\(route): the same answer, the same tag")
                for held in [tag, "W/\(tag)", "\"other\", \(tag)", " ,W/\"x\" ,\(tag) , ", "*"] {
                    let current = try await client.conditionalGet(route, token: token, ifNoneMatch: held)
                    #expect(current.status == .notModified && current.body.isEmpty, "\(route) If-None-Match \(held): \(current.status)")
                    #expect(current.headers[.eTag] == tag && current.headers[.contentType] == nil, "\(route): \(current.headers)")
                }
                // Another tag, or a value that is no list of tags, is the full answer.
                for held in ["\"other\"", String(tag.dropFirst().dropLast()), "\(tag) \(tag)", "W/"] {
                    let full = try await client.conditionalGet(route, token: token, ifNoneMatch: held)
                    #expect(full.status == .ok && full.body == first.body && full.headers[.eTag] == tag, "\(route) If-None-Match \(held)")
                }
            }
        }
    }

    /// Fails when the contract declares a 304 on a GET that none of `routes` reaches.
    private static func checkEveryConditionalReadIsListed(_ routes: [String]) throws {
        let paths = routes.map { String($0.split(separator: "?", maxSplits: 1)[0]) }
        var missed: [String] = []
        for (template, item) in try ContractDocument().paths {
            guard let get = item["get"] as? [String: Any], (get["responses"] as? [String: Any])?["304"] != nil,
                  template != "/v1/blobs/{blobId}" else { continue }  // an image, which answers its own (BlobRouteTests)
            let pattern = "^" + template.replacingOccurrences(of: "\\{[^}]+\\}", with: "[^/]+", options: .regularExpression) + "$"
            if !paths.contains(where: { $0.range(of: pattern, options: .regularExpression) != nil }) { missed.append(template) }
        }
        #expect(missed.isEmpty, "reads with a 304 not checked: \(missed.sorted())")
    }

    /// An entity keeps its stream version as its tag (If-Match needs it), and honours it.
    @Test func anEntityIsTaggedByItsVersionAndHonoursIt() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (userId, ann) = try await client.register("ann@example.org")
            let houseId = try #require(try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann).json["houseId"] as? String)
            let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Summer"], token: ann).json["groupId"] as? String)
            let log = server.runtime.log.lmdb
            for (route, stream) in [("/v1/houses/\(houseId)", "house-\(houseId)"), ("/v1/me/house", "house-\(houseId)"),
                                    ("/v1/groups/\(groupId)", "group-\(groupId)"), ("/v1/me", "account-\(userId)")] {
                let read = try await client.conditionalGet(route, token: ann)
                let version = try #require(try log.streamVersion(stream))
                #expect(read.headers[.eTag] == "\"\(version)\"", "\(route): the stream's version")
                let current = try await client.conditionalGet(route, token: ann, ifNoneMatch: "W/\"\(version)\"")
                #expect(current.status == .notModified && current.body.isEmpty && current.headers[.eTag] == "\"\(version)\"", "\(route)")
            }
            // A change moves the version: the old tag gets the new answer.
            let held = try #require(try await client.conditionalGet("/v1/houses/\(houseId)", token: ann).headers[.eTag])
            #expect(try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann).status == .created)
            let changed = try await client.conditionalGet("/v1/houses/\(houseId)", token: ann, ifNoneMatch: held)
            #expect(changed.status == .ok && changed.headers[.eTag] != held && changed.text.contains("Kitchen"))
        }
    }

    /// A command that changes an answer changes its tag: the old one gets the new answer, the
    /// new one a 304.
    @Test func aChangeGivesANewTagAndTheOldOneTheNewAnswer() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let world = try await ReadWorld.make(client)
            let board = "/v1/houses/\(world.houseId)/scoreboard", history = "/v1/houses/\(world.houseId)/history"
            let tasks = "/v1/houses/\(world.houseId)/rooms/\(world.roomId)/tasks", messages = "/v1/groups/\(world.groupId)/messages"
            var held: [String: Reply] = [:]
            for route in [board, history, tasks, "/v1/me/activity", messages] {
                held[route] = try await client.conditionalGet(route, token: world.ann)
            }
            // Done again an hour on: the task's last-done time moves too.
            clock.advance(by: 3_600)
            #expect(try await client.send(.post, "/v1/houses/\(world.houseId)/tasks/\(world.taskId)/completions", token: world.ann).status == .created)
            #expect(try await client.send(.post, "\(messages)", json: ["text": "Again"], token: world.ann).status == .created)
            for (route, before) in held {
                let tag = try #require(before.headers[.eTag])
                let after = try await client.conditionalGet(route, token: world.ann, ifNoneMatch: tag)
                #expect(after.status == .ok && after.body != before.body && after.headers[.eTag] != tag, "\(route): \(after.status)")
                let newTag = try #require(after.headers[.eTag])
                #expect(try await client.conditionalGet(route, token: world.ann, ifNoneMatch: newTag).status == .notModified, "\(route)")
            }
        }
    }

    /// A read-model tag is of the answer, not of the route: one user's tag never stands for
    /// another's different answer, and the same answer to two users is the same tag. (An
    /// entity's is its version: `/v1/me` of two accounts at the same version share one.)
    @Test func answersThatDifferPerUserNeverShareATag() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let world = try await ReadWorld.make(client)
            for route in ["/v1/me/activity", "/v1/groups", "/v1/neighbourhood/my-reports", "/v1/me/notifications"] {
                let anns = try await client.conditionalGet(route, token: world.ann)
                let bobs = try await client.conditionalGet(route, token: world.bob)
                #expect(anns.status == .ok && bobs.status == .ok && anns.body != bobs.body, "\(route): the two answers differ")
                #expect(anns.headers[.eTag] != bobs.headers[.eTag], "\(route)")
                let crossed = try await client.conditionalGet(route, token: world.bob, ifNoneMatch: try #require(anns.headers[.eTag]))
                #expect(crossed.status == .ok && crossed.body == bobs.body, "\(route): Bob gets his own answer for Ann's tag")
            }
            // The house's members see the same board, so one tag is current for both.
            let board = "/v1/houses/\(world.houseId)/scoreboard"
            let anns = try await client.conditionalGet(board, token: world.ann)
            let bobs = try await client.conditionalGet(board, token: world.bob, ifNoneMatch: try #require(anns.headers[.eTag]))
            #expect(bobs.status == .notModified)
        }
    }

    /// A problem answers in full whatever `If-None-Match` says, and carries no tag.
    @Test func aProblemIsNever304() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let world = try await ReadWorld.make(client)
            let eve = try await client.register("eve@example.org", displayName: "Eve").token
            let refusals: [(String, String?, HTTPResponse.Status)] = [
                ("/v1/houses/\(world.houseId)/scoreboard", eve, .forbidden),
                ("/v1/houses/\(UUID().uuidString.lowercased())", world.ann, .notFound),
                ("/v1/groups/\(world.groupId)/messages", eve, .notFound),
                ("/v1/me/activity", nil, .unauthorized),
                ("/v1/me/activity?limit=abc", world.ann, .badRequest),
            ]
            for (route, token, status) in refusals {
                for held in ["*", "W/\"x\""] {
                    let reply = try await client.conditionalGet(route, token: token, ifNoneMatch: held)
                    #expect(reply.status == status && reply.isProblem && !reply.body.isEmpty, "\(route) If-None-Match \(held): \(reply.status)")
                    #expect(reply.headers[.eTag] == nil, "\(route)")
                }
            }
        }
    }

    /// HEAD is the GET's head: the same tag, and 304 for it.
    @Test func headAnswersTheGetsTagAnd304() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let world = try await ReadWorld.make(client)
            let board = "/v1/houses/\(world.houseId)/scoreboard"
            let get = try await client.conditionalGet(board, token: world.ann)
            let tag = try #require(get.headers[.eTag])
            let head = try await client.conditionalGet(board, method: .head, token: world.ann)
            #expect(head.status == .ok && head.headers[.eTag] == tag && head.body.isEmpty)
            let current = try await client.conditionalGet(board, method: .head, token: world.ann, ifNoneMatch: tag)
            #expect(current.status == .notModified && current.headers[.eTag] == tag && current.body.isEmpty)
        }
    }

    /// A live stream never ends, so one held back to be tagged would never start: with
    /// `If-None-Match` it still opens at once, untagged.
    @Test func aLiveStreamWithIfNoneMatchStreamsUntagged() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let port = try #require(client.port)
            let received = try await RawHTTPConnection.offThePool {
                let connection = try RawHTTPConnection(port: port, timeoutSeconds: 10)
                connection.send("GET /v1/live?topics=me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ann)\r\n"
                                + "Accept: text/event-stream\r\nIf-None-Match: *\r\n\r\n")
                // Returns with the head: the stream never ends, so a buffered one would send none.
                let head = connection.receive()
                connection.reset()
                return head
            }
            #expect(received.status == 200, "\(String(decoding: received.bytes, as: UTF8.self))")
            #expect(received.headers["content-type"]?.hasPrefix("text/event-stream") == true && received.headers["etag"] == nil)
        }
    }
}

/// One of everything each app shows, made over HTTP: Ann's house (Bob a member) with a
/// completed task, a quiz game of theirs, Ann's report with Bob's reply, an organisation with a
/// review, Ann's photo group with a photo and a message.
struct ReadWorld {
    let ann: String, bob: String
    let houseId: String, roomId: String, taskId: String, groupId: String
    /// Nil without the quiz's starter bank (a game needs questions).
    let gameId: String?
    let routes: [String]

    static func make(_ client: any TestClientProtocol) async throws -> ReadWorld {
        let ann = try await client.register("ann@example.org", username: "ann", extra: ["postcode": "1012AB"]).token
        let bob = try await client.register("bob@example.org", displayName: "Bob", username: "bob", extra: ["postcode": "1012AB"]).token
        let house = try await AdminFixture.houseWithTask(client, owner: ann, member: bob)
        let roomId = try #require((try await client.send(.get, "/v1/houses/\(house.houseId)", token: ann).json["rooms"] as? [[String: Any]])?
            .first?["roomId"] as? String)
        #expect(try await client.send(.post, "/v1/houses/\(house.houseId)/tasks/\(house.taskId)/completions", token: ann).status == .created)
        let game = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "bob"], token: ann)
        let report = try await client.send(.post, "/v1/neighbourhood/reports", json: [
            "title": "Bike stolen", "description": "Outside number 12.", "category": "suspicious",
            "location": ["latitude": 52.3731, "longitude": 4.8922],
        ], token: ann)
        let reportId = try #require(report.json["reportId"] as? String, "\(report.text)")
        #expect(try await client.send(.post, "/v1/neighbourhood/reports/\(reportId)/replies", json: ["message": "Seen it"], token: bob).status == .created)
        let workplace = try await WorkplaceRouteFixture.organisationWithAReview(client, admin: ann, employee: bob)
        let organisation = "/v1/organisations/\(workplace.organisation)"
        let groupId = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Summer"], token: ann).json["groupId"] as? String)
        let group = "/v1/groups/\(groupId)"
        let blobId = try await client.uploadedBlob(TestImages.png(200, 10, 10), token: ann)
        let photo = try await client.send(.post, "\(group)/photos", json: ["blobId": blobId, "description": "The beach"], token: ann)
        let photoId = try #require(photo.json["photoId"] as? String, "\(photo.text)")
        #expect(try await client.send(.post, "\(group)/messages", json: ["text": "Lovely"], token: ann).status == .created)
        var routes = [
            "/v1/me", "/v1/me/activity", "/v1/me/house", "/v1/houses/\(house.houseId)", "/v1/houses/\(house.houseId)/rooms/\(roomId)/tasks",
            "/v1/houses/\(house.houseId)/history", "/v1/houses/\(house.houseId)/scoreboard", "/v1/quiz/games", "/v1/quiz/players/ann",
            "/v1/quiz/leaderboard", "/v1/neighbourhood/reports", "/v1/neighbourhood/reports/\(reportId)", "/v1/neighbourhood/my-reports",
            "/v1/neighbourhood/following", "/v1/neighbourhood/map?bbox=4.8,52.3,4.9,52.4", "/v1/me/notifications",
            "/v1/organisations", organisation, "\(organisation)/members", "\(organisation)/join-requests", "\(organisation)/forms",
            "\(organisation)/forms/\(workplace.form)", "\(organisation)/reviews", "\(organisation)/reviews/\(workplace.review)",
            "\(organisation)/news", "/v1/groups", group, "\(group)/photos", "\(group)/photos/\(photoId)", "\(group)/messages",
        ]
        let gameId = game.json["gameId"] as? String
        if let gameId {
            routes += ["/v1/quiz/games/\(gameId)", "/v1/quiz/games/\(gameId)/question"]
        }
        return ReadWorld(ann: ann, bob: bob, houseId: house.houseId, roomId: roomId, taskId: house.taskId, groupId: groupId, gameId: gameId, routes: routes)
    }

    /// The operators' reads of the same log.
    func adminRoutes(position: Int) -> [String] {
        ["/v1/admin/projections", "/v1/admin/head", "/v1/admin/stats", "/v1/admin/events", "/v1/admin/streams/house-\(houseId)",
         "/v1/admin/audit?entity=house-\(houseId)", "/v1/admin/as-of/\(position)/houses/\(houseId)/scoreboard"]
            + (gameId.map { ["/v1/admin/as-of/\(position)/quiz/games/\($0)"] } ?? [])
    }
}

extension TestClientProtocol {
    /// A GET (or HEAD) with `token` and, unless nil, `If-None-Match: ifNoneMatch`.
    func conditionalGet(
        _ uri: String, method: HTTPRequest.Method = .get, token: String?, ifNoneMatch: String? = nil
    ) async throws -> Reply {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        let response = try await execute(uri: uri, method: method, headers: headers, body: nil)
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }
}
