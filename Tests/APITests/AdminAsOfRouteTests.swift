import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// `GET /v1/admin/as-of/{position}/…`: app queries answered as they were right after a log
/// position, equal to what the live routes answered then, without touching the served read models.
@Suite("Admin API: as of a position", .timeLimit(.minutes(3)))
struct AdminAsOfRouteTests {
    @Test func theScoreboardAsOfAMiddleCompletionIsWhatItsMembersSawThenAndBadPositionsAreRefused() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann")
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            let beforeHouse = try await server.runtime.log.lmdb.headPosition()
            let (houseId, taskId) = try await AdminFixture.houseWithTask(client, owner: ann.token, member: bob.token)
            var positions: [UInt64] = []
            var scoreboards: [String] = []
            for completer in [bob, ann, bob] {
                let done = try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: completer.token)
                try #require(done.status == .created, "\(done.text)")
                positions.append(try await server.runtime.log.lmdb.headPosition())
                scoreboards.append(try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: ann.token).text)
            }
            let statusBefore = try await server.runtime.projections.status()

            for (position, live) in zip(positions, scoreboards) {
                let asOf = try await client.admin("/v1/admin/as-of/\(position)/houses/\(houseId)/scoreboard")
                #expect(asOf.status == .ok, "\(asOf.text)")
                #expect(asOf.text == live, "as of \(position)")
            }
            #expect(scoreboards[1] != scoreboards[2], "the third completion changed the scoreboard")
            // The served read models: the same positions and the same answers.
            #expect(try await server.runtime.projections.status() == statusBefore)
            #expect(try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: ann.token).text == scoreboards[2])

            let head = positions[2]
            let refusals: [(String, HTTPResponse.Status, String)] = [
                ("/v1/admin/as-of/0/houses/\(houseId)/scoreboard", .badRequest, "invalid_position"),
                ("/v1/admin/as-of/-3/houses/\(houseId)/scoreboard", .badRequest, "invalid_position"),
                ("/v1/admin/as-of/\(head + 1)/houses/\(houseId)/scoreboard", .badRequest, "position_beyond_head"),
                ("/v1/admin/as-of/\(beforeHouse)/houses/\(houseId)/scoreboard", .notFound, "house_not_found"),
                ("/v1/admin/as-of/\(head)/houses/\(UUID().uuidString.lowercased())/scoreboard", .notFound, "house_not_found"),
                ("/v1/admin/as-of/\(head)/quiz/games/\(UUID().uuidString.lowercased())", .notFound, "game_not_found"),
            ]
            for (path, status, code) in refusals {
                let reply = try await client.admin(path)
                #expect(reply.status == status && reply.code == code && reply.isProblem, "\(path): \(reply.text)")
            }
            let asUser = try await client.send(.get, "/v1/admin/as-of/\(head)/houses/\(houseId)/scoreboard", token: ann.token)
            #expect(asUser.status == .forbidden && asUser.code == "not_an_operator")
        }
    }

    @Test func aQuizGameAsOfAMiddlePositionShowsTheAnswersGivenByThen() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        _ = try await prepareFirstStart(runtime: server.runtime, demo: false)
        try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann", username: "ann").token
            let bob = try await client.register("bob@example.org", displayName: "Bob", username: "bob").token
            let created = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "bob"], token: ann)
            let gameId = try #require(created.json["gameId"] as? String, "\(created.text)")
            func answerNext(_ token: String) async throws {
                let question = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: token)
                let index = try #require(question.json["index"] as? Int, "\(question.text)")
                let option = try #require((question.json["answers"] as? [String])?.first)
                let answered = try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": index, "answer": option], token: token)
                try #require(answered.status == .created, "\(answered.text)")
            }
            for _ in 0..<4 { try await answerNext(ann) }
            for _ in 0..<2 { try await answerNext(bob) }
            let middle = try await server.runtime.log.lmdb.headPosition()
            let annThen = try await client.send(.get, "/v1/quiz/games/\(gameId)", token: ann)
            for _ in 0..<6 { try await answerNext(ann) }
            for _ in 0..<8 { try await answerNext(bob) }

            let asOf = try await client.admin("/v1/admin/as-of/\(middle)/quiz/games/\(gameId)")
            #expect(asOf.status == .ok, "\(asOf.text)")
            #expect(asOf.text == annThen.text, "the challenger's view then")
            #expect((asOf.json["me"] as? [String: Any])?["answered"] as? Int == 4)
            #expect((asOf.json["opponent"] as? [String: Any])?["answered"] as? Int == 2)
            #expect(asOf.json["status"] as? String == "running")
            let now = try await client.admin("/v1/admin/as-of/\(try await server.runtime.log.lmdb.headPosition())/quiz/games/\(gameId)")
            #expect(now.json["status"] as? String == "finished", "\(now.text)")
            #expect(try await client.send(.get, "/v1/quiz/games/\(gameId)", token: ann).json["status"] as? String == "finished")
        }
    }
}
