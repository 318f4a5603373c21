import Foundation
import HummingbirdTesting
import Testing
@testable import API
@testable import Projections

/// Completions through HTTP: the total each answer carries comes from the decision itself, a
/// retry answers the first award, and housemates completing at once are decided as one chain instead of
/// failing with 409.
@Suite("Household completions under contention", .timeLimit(.minutes(3)))
struct HouseholdContentionTests {
    /// A house of `members` (all registered here, the first creating it) with one `points`-point
    /// task per member in one room. Returns the house, the members' tokens and the task ids.
    private func house(
        _ client: any TestClientProtocol, members: [String], points: Int
    ) async throws -> (houseId: String, tokens: [String], taskIds: [String]) {
        var tokens: [String] = []
        for name in members { tokens.append(try await client.register("\(name.lowercased())@example.org", displayName: name).token) }
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: tokens[0])
        let houseId = try #require(created.json["houseId"] as? String)
        let code = try #require(created.json["joinCode"] as? String)
        for token in tokens.dropFirst() {
            #expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: token).status == .ok)
        }
        let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: tokens[0])
        let roomId = try #require(room.json["roomId"] as? String)
        var taskIds: [String] = []
        for name in members {
            let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                             json: ["name": "Chore of \(name)", "frequencyDays": 1, "points": points], token: tokens[0])
            taskIds.append(try #require(task.json["taskId"] as? String, "\(task.text)"))
        }
        return (houseId, tokens, taskIds)
    }

    @Test func completionsAnswerTheRunningTotalAndARetryTheFirstAwardWithoutANewEvent() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (houseId, tokens, taskIds) = try await house(client, members: ["Ann", "Bob"], points: 5)
            let (ann, bob) = (tokens[0], tokens[1])
            let path = "/v1/houses/\(houseId)/tasks/\(taskIds[0])/completions"
            let key = UUID().uuidString
            let first = try await client.send(.post, path, token: ann, key: key)
            #expect(first.status == .created && first.json["pointsAwarded"] as? Int == 5 && first.json["totalPoints"] as? Int == 5, "\(first.text)")
            let position = try #require(first.json["position"] as? Int)

            var head = try server.runtime.log.lmdb.headPosition()
            let retry = try await client.send(.post, path, token: ann, key: key)
            #expect(retry.status == .created && retry.json["pointsAwarded"] as? Int == 5 && retry.json["totalPoints"] as? Int == 5)
            #expect(retry.json["position"] as? Int == position && retry.json["events"] as? [String] == ["household.taskCompleted"])
            #expect(try server.runtime.log.lmdb.headPosition() == head, "a retry appends nothing")

            var totals: [Int] = []
            for token in [ann, bob, ann] {
                let done = try await client.send(.post, path, token: token)
                #expect(done.status == .created && done.json["pointsAwarded"] as? Int == 5, "\(done.text)")
                totals.append(try #require(done.json["totalPoints"] as? Int))
            }
            #expect(totals == [10, 5, 15], "each caller's own running total")

            // The task is worth more now; the retried completion still earned what it earned then.
            #expect(try await client.send(.patch, "/v1/houses/\(houseId)/tasks/\(taskIds[0])", json: ["points": 8], token: ann).status == .ok)
            head = try server.runtime.log.lmdb.headPosition()
            let late = try await client.send(.post, path, token: ann, key: key)
            #expect(late.status == .created && late.json["pointsAwarded"] as? Int == 5 && late.json["position"] as? Int == position, "\(late.text)")
            #expect(late.json["totalPoints"] as? Int == 5, "a retry answers the first outcome's total, not today's 15")
            #expect(try server.runtime.log.lmdb.headPosition() == head, "a late retry appends nothing either")
            let next = try await client.send(.post, path, token: ann)
            #expect(next.json["pointsAwarded"] as? Int == 8 && next.json["totalPoints"] as? Int == 23, "\(next.text)")

            let board = try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: bob)
            let rows = (board.json["members"] as? [[String: Any]])?.map { "\($0["displayName"] ?? "")=\($0["points"] ?? "")" }
            #expect(rows == ["Ann=23", "Bob=5"])
        }
    }

    /// The scoreboard is served from memory once read; a completion must show in the very next
    /// read of it, by anyone.
    @Test func aCachedScoreboardShowsACompletionAtOnce() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (houseId, tokens, taskIds) = try await house(client, members: ["Ann", "Bob"], points: 4)
            let board = "/v1/houses/\(houseId)/scoreboard"
            func points() async throws -> [Int] {
                let reply = try await client.send(.get, board, token: tokens[1])
                return (reply.json["members"] as? [[String: Any]] ?? []).compactMap { $0["points"] as? Int }
            }
            #expect(try await points() == [0, 0])
            #expect(server.runtime.household.scoreboards.count == 1, "the board is served from memory now")
            for expected in [[4, 0], [8, 0]] {
                #expect(try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskIds[0])/completions", token: tokens[0]).status == .created)
                #expect(try await points() == expected)
            }
        }
    }

    /// Four housemates, 50 completions at once over several connections: every one is 201, none
    /// is lost, and in this process none even had to be decided twice.
    @Test func fiftyConcurrentCompletionsInOneHouseAllSucceedAndAddUp() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let points = 3, requests = 50
        try await server.test { client in
            let (houseId, tokens, taskIds) = try await house(client, members: ["Ann", "Bob", "Cara", "Dan"], points: points)
            let port = try #require(client.port)
            let http = HTTPClient(base: "http://\(server.runtime.configuration.host):\(port)")
            let head = try server.runtime.log.lmdb.headPosition()

            // Even requests complete the first (shared) task, odd ones the member's own.
            let replies = try await withThrowingTaskGroup(of: (member: Int, reply: HTTPReply).self) { group in
                for index in 0..<requests {
                    let member = index % tokens.count
                    let task = index.isMultiple(of: 2) ? taskIds[0] : taskIds[member]
                    group.addTask {
                        (member, try await http.send("POST", "/v1/houses/\(houseId)/tasks/\(task)/completions", token: tokens[member]))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(replies.count == requests)
            let refused = replies.filter { $0.reply.status != 201 }.map { "\($0.reply.status) \($0.reply.text)" }
            #expect(refused.isEmpty, "every completion is 201, none a version_conflict: \(refused)")
            for member in tokens.indices {
                let totals = replies.filter { $0.member == member }.compactMap { $0.reply.json["totalPoints"] as? Int }.sorted()
                let count = (0..<requests).filter { $0 % tokens.count == member }.count
                #expect(totals == (1...count).map { $0 * points }, "member \(member) saw each of their completions counted once")
            }
            #expect(try server.runtime.log.lmdb.headPosition() == head + UInt64(requests))

            let board = try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: tokens[0])
            let scores = (board.json["members"] as? [[String: Any]] ?? []).compactMap { $0["points"] as? Int }
            #expect(scores.count == tokens.count && scores.reduce(0, +) == requests * points, "\(board.text)")
            let history = try await client.send(.get, "/v1/houses/\(houseId)/history?limit=500", token: tokens[1])
            #expect((history.json["items"] as? [[String: Any]])?.count == requests)

            let handler = server.runtime.commands
            #expect(handler.commandsQueued > 0, "commands queued behind one another on the house: the race happened")
            #expect(handler.conflictsSeen == 0, "no command decided on a stale fold")
        }
    }
}
