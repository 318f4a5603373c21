import EventLog
import PostgresEventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API
@testable import Projections

/// A read model whose stored copy another version built is not read: its queries answer 503
/// `read_model_rebuilding` with `Retry-After`, not wrong data and not a 500.
@Suite("Read model being rebuilt", .timeLimit(.minutes(3)))
struct ReadModelRebuildingTests {
    @Test func rebuildingIs503WithACodeAndRetryAfter() throws {
        let problem = ProblemMapping.problem(for: ReadModelError.rebuilding("x"))
        #expect(problem.status == 503 && problem.code == "read_model_rebuilding" && problem.type == "/problems/read_model_rebuilding")
        let response = problem.response()
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.contentType] == "application/problem+json")
        let retryAfter = try #require(response.headers[.retryAfter].flatMap { Int($0) })
        #expect(retryAfter > 0)
        // The same answer whichever way the error reaches the edge.
        #expect(ProblemMiddleware<LogbookRequestContext>.problem(for: ReadModelError.rebuilding("x")) == problem)
        #expect(ProblemMapping.problem(for: ListQueryError.readModel(.rebuilding("x"))) == problem)
        #expect(ProblemMapping.problem(for: ReadModelError.notCaughtUp(position: 2, projected: 1)) == .internalError)
    }

    @Test func aFailedReadModelIs503WithItsOwnCodeAndRetryAfter() throws {
        let problem = ProblemMapping.problem(for: ReadModelError.unavailable(projection: "x", failedAt: 7))
        #expect(problem.status == 503 && problem.code == "read_model_unavailable" && problem.type == "/problems/read_model_unavailable")
        let response = problem.response()
        #expect(response.status == .serviceUnavailable && response.headers[.contentType] == "application/problem+json")
        #expect(try #require(response.headers[.retryAfter].flatMap { Int($0) }) > 0)
        #expect(!(problem.detail ?? "").contains("x"), "the projection's name is the operator's business")
        #expect(ProblemMiddleware<LogbookRequestContext>.problem(for: ReadModelError.unavailable(projection: "x", failedAt: 7)) == problem)
        #expect(ProblemMapping.problem(for: ListQueryError.readModel(.unavailable(projection: "x", failedAt: 7))) == problem)
    }

    /// Every GET route that reads a read model, of every app, with one of everything to show:
    /// while the copies are another version's, each answers 503 `read_model_rebuilding`; while
    /// the projections are failed, 503 `read_model_unavailable`; once rebuilt, exactly what it
    /// answered before. Never a wrong or empty 200.
    @Test func everyQueryRouteOfEveryAppIsRefusedWhileItsCopyCannotServeAndRightAfterARebuild() async throws {
        let server = try TestServer()
        defer { server.remove() }
        _ = try await prepareFirstStart(runtime: server.runtime, demo: false)  // the quiz's starter bank
        try await server.test { client in
            let ann = try await client.register("ann@example.org", username: "ann", extra: ["postcode": "1012AB"]).token
            let bob = try await client.register("bob@example.org", username: "bob", extra: ["postcode": "1012AB"]).token
            let house = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(house.json["houseId"] as? String)
            let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann)
            let roomId = try #require(room.json["roomId"] as? String)
            let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                             json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: ann)
            let taskId = try #require(task.json["taskId"] as? String)
            #expect(try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: ann).status == .created)
            let game = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "bob"], token: ann)
            let gameId = try #require(game.json["gameId"] as? String, "\(game.text)")
            let report = try await client.send(.post, "/v1/neighbourhood/reports", json: [
                "title": "Bike stolen", "description": "Outside number 12.", "category": "suspicious",
                "location": ["latitude": 52.3731, "longitude": 4.8922],
            ], token: ann)
            let reportId = try #require(report.json["reportId"] as? String, "\(report.text)")
            let workplace = try await WorkplaceRouteFixture.organisationWithAReview(client, admin: ann, employee: bob)
            let organisation = "/v1/organisations/\(workplace.organisation)"
            let created = try await client.send(.post, "/v1/groups", json: ["name": "Summer"], token: ann)
            let groupId = try #require(created.json["groupId"] as? String, "\(created.text)")
            let group = "/v1/groups/\(groupId)"
            let blobId = try await client.uploadedBlob(TestImages.png(200, 10, 10), token: ann)
            let photo = try await client.send(.post, "\(group)/photos", json: ["blobId": blobId, "description": "The beach"], token: ann)
            let photoId = try #require(photo.json["photoId"] as? String, "\(photo.text)")
            #expect(try await client.send(.post, "\(group)/messages", json: ["text": "Lovely"], token: ann).status == .created)

            let routes = [
                "/v1/me", "/v1/me/activity", "/v1/me/house", "/v1/houses/\(houseId)", "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                "/v1/houses/\(houseId)/history", "/v1/houses/\(houseId)/scoreboard", "/v1/quiz/games", "/v1/quiz/games/\(gameId)",
                "/v1/quiz/games/\(gameId)/question", "/v1/quiz/players/ann", "/v1/quiz/leaderboard", "/v1/neighbourhood/reports",
                "/v1/neighbourhood/reports/\(reportId)", "/v1/neighbourhood/my-reports", "/v1/neighbourhood/following",
                "/v1/neighbourhood/map?bbox=4.8,52.3,4.9,52.4", "/v1/me/notifications",
                "/v1/organisations", organisation, "\(organisation)/members", "\(organisation)/join-requests", "\(organisation)/forms",
                "\(organisation)/forms/\(workplace.form)", "\(organisation)/reviews", "\(organisation)/reviews/\(workplace.review)",
                "\(organisation)/news", "/v1/groups", group, "\(group)/photos", "\(group)/photos/\(photoId)", "\(group)/messages",
                "/v1/blobs/\(blobId)",
            ]
            try checkEveryQueryRouteIsListed(
                routes, ids: [houseId, roomId, gameId, reportId, "ann", workplace.organisation, workplace.form, workplace.review,
                              groupId, photoId, blobId])
            var before: [String: NSObject] = [:]
            for route in routes {
                let reply = try await client.send(.get, route, token: ann)
                #expect(reply.status == .ok, "\(route): \(reply.text)")
                before[route] = try Self.answer(reply)
            }

            // Sessions and credentials serve on: without them no route gets past authentication.
            let engine = server.runtime.projections
            let marked = engine.projections.filter { ![AccountProjections.sessions.name, AccountProjections.credentials.name].contains($0.name) }
            for (mark, code) in [(markBuiltByAnotherVersion, "read_model_rebuilding"), (markFailed, "read_model_unavailable")] {
                for projection in marked { try mark(projection, engine) }
                for route in routes {
                    let reply = try await client.send(.get, route, token: ann)
                    #expect(reply.status == .serviceUnavailable && reply.isProblem && reply.code == code, "\(route): \(reply.text)")
                    #expect(Int(reply.headers[.retryAfter] ?? "") ?? 0 > 0, "\(route)")
                }
                for projection in marked { try await engine.rebuild(projection.name) }
                for route in routes where !route.hasSuffix("/tasks") {  // task priorities move with the clock
                    let reply = try await client.send(.get, route, token: ann)
                    let after = try Self.answer(reply)
                    #expect(reply.status == .ok && after == before[route], "\(route): \(reply.text)")
                }
            }
            // The read models behind authentication and login refuse the same way, never a 500.
            try markFailed(AccountProjections.sessions, engine)
            let me = try await client.me(ann)
            #expect(me.status == .serviceUnavailable && me.code == "read_model_unavailable", "\(me.text)")
            try markBuiltByAnotherVersion(AccountProjections.credentials, engine)
            let login = try await client.login("ann@example.org", "correct horse")
            #expect(login.status == .serviceUnavailable && login.code == "read_model_rebuilding", "\(login.text)")
        }
    }

    /// What a query answered: its JSON as a dictionary (key order aside), or an image's bytes.
    private static func answer(_ reply: Reply) throws -> NSObject? {
        guard reply.headers[.contentType]?.hasPrefix("image/") == true else {
            return try JSONSerialization.jsonObject(with: reply.body) as? NSDictionary
        }
        return reply.body as NSData
    }

    /// Fails when the contract has a GET route that `routes` (with `ids` in its path) misses.
    private func checkEveryQueryRouteIsListed(_ routes: [String], ids: [String]) throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        // The chain head and the operators' event, stream and audit reads come from the log
        // itself, the metrics from counters and the engine's status, not from a read model; the
        // live streams are not queries (their refusals are the live suites' business), and the
        // as-of answers come from a copy built for them, never from the served read models.
        let notReadModels: Set = [
            "/health", "/health/ready", "/openapi.json", "/metrics", "/v1/admin/projections", "/v1/admin/head",
            "/v1/admin/events", "/v1/admin/streams/{streamId}", "/v1/admin/audit", "/v1/live", "/v1/admin/events/live",
            "/v1/admin/as-of/{position}/houses/{houseId}/scoreboard", "/v1/admin/as-of/{position}/quiz/games/{gameId}",
            "/v1/admin/stats", "/admin", "/admin/{file}",
        ]
        let queries = Set(paths.filter { $0.value["get"] != nil && !notReadModels.contains($0.key) }.keys)
        var listed = Set<String>()
        for route in routes {
            var path = String(route.split(separator: "?", maxSplits: 1)[0])
            for (id, parameter) in zip(ids, [
                "{houseId}", "{roomId}", "{gameId}", "{reportId}", "{username}", "{organisationId}", "{formId}", "{reviewId}",
                "{groupId}", "{photoId}", "{blobId}",
            ]) {
                path = path.replacingOccurrences(of: "/\(id)", with: "/\(parameter)")
            }
            listed.insert(path)
        }
        #expect(queries.subtracting(listed).isEmpty, "query routes not checked: \(queries.subtracting(listed).sorted())")
    }

    /// The served copies of the household read models are marked as built by another version,
    /// as after an upgrade whose rebuild has not finished: every query of them answers 503.
    @Test func aQueryOfACopyBuiltByAnotherVersionAnswers503() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(created.json["houseId"] as? String)
            let board = "/v1/houses/\(houseId)/scoreboard", history = "/v1/houses/\(houseId)/history"
            // History reads fill the membership cache but not the scoreboard's: this test rewrites
            // the metadata behind the engine's back, which no real path does without clearing the
            // caches (a version changes in a new process, or at a swap, which invalidates them).
            #expect(try await client.send(.get, history, token: ann).status == .ok)

            for projection: any Projection in [HouseholdProjections.houses, HouseholdProjections.history] {
                try markBuiltByAnotherVersion(projection, in: server.runtime.projections)
            }
            // The membership is still cached: the scoreboard's own read meets the old copy.
            for path in [board, history, "/v1/houses/\(houseId)", "/v1/me/house"] {
                let reply = try await client.send(.get, path, token: ann)
                #expect(reply.status == .serviceUnavailable && reply.code == "read_model_rebuilding" && reply.isProblem, "\(path): \(reply.text)")
                #expect(Int(reply.headers[.retryAfter] ?? "") ?? 0 > 0, "\(path)")
            }
            // Other read models still serve.
            #expect(try await client.me(ann).status == .ok)
        }
    }

    /// Rewrites `projection`'s metadata as if another version of it had built the served copy.
    private func markBuiltByAnotherVersion(_ projection: any Projection, in engine: ProjectionEngine<some EventStore>) throws {
        let store = engine.store
        try store.write { txn in
            var meta = try #require(try store.meta(of: projection.name, in: txn.reader))
            meta.version = projection.version + 1
            try store.store(meta, of: projection.name, in: txn)
        }
    }

    /// `markBuiltByAnotherVersion` as a real version change reaches a running server: its caches
    /// are dropped too (a new process starts without them; a swap invalidates them).
    private func markBuiltByAnotherVersion(_ projection: any Projection, _ engine: ProjectionEngine<EventLogBackend>) throws {
        try markBuiltByAnotherVersion(projection, in: engine)
        engine.notifySwapped(projection.name)
    }

    /// Marks `projection` failed, as the runner does when its `apply` throws (caches included).
    private func markFailed(_ projection: any Projection, _ engine: ProjectionEngine<EventLogBackend>) throws {
        let store = engine.store
        try store.write { txn in
            var meta = try #require(try store.meta(of: projection.name, in: txn.reader))
            meta.failure = ProjectionFailure(position: meta.checkpoint + 1, reason: "marked by the test")
            try store.store(meta, of: projection.name, in: txn)
        }
        engine.notifySwapped(projection.name)
    }
}
