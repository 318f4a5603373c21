import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// The household routes through HTTP: a house played by two members, and every refusal.
@Suite("Household routes", .timeLimit(.minutes(3)))
struct HouseholdRouteTests {
    /// Ann's house with a kitchen and a task; Bob joined. Returns ids and tokens.
    private func seededHouse(_ client: any TestClientProtocol) async throws -> (ann: String, bob: String, houseId: String, roomId: String, taskId: String) {
        let ann = try await client.register("ann@example.org", displayName: "Ann")
        let bob = try await client.register("bob@example.org", displayName: "Bob")
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann.token)
        try #require(created.status == .created, "\(created.text)")
        let houseId = try #require(created.json["houseId"] as? String)
        let code = try #require(created.json["joinCode"] as? String)
        #expect(code.count >= 22 && created.json["events"] as? [String] == ["household.houseCreated"])
        let joined = try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: bob.token)
        try #require(joined.status == .ok, "\(joined.text)")
        #expect(joined.json["houseId"] as? String == houseId)
        let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann.token)
        try #require(room.status == .created, "\(room.text)")
        let roomId = try #require(room.json["roomId"] as? String)
        let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                         json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: bob.token)
        try #require(task.status == .created, "\(task.text)")
        return (ann.token, bob.token, houseId, roomId, try #require(task.json["taskId"] as? String))
    }

    @Test func aHouseIsPlayedThroughAndEveryQueryReadsItsWrites() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let (ann, bob, houseId, roomId, taskId) = try await seededHouse(client)
            let mine = try await client.send(.get, "/v1/me/house", token: bob)
            #expect(mine.status == .ok && mine.json["houseId"] as? String == houseId)
            let members = (mine.json["members"] as? [[String: Any]])?.compactMap { $0["displayName"] as? String }
            #expect(members == ["Ann", "Bob"])
            #expect((mine.json["rooms"] as? [[String: Any]])?.first?["name"] as? String == "Kitchen")

            var tasks = try await client.send(.get, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", token: ann)
            #expect((tasks.json["tasks"] as? [[String: Any]])?.first?["priority"] as? String == "high", "never done is due")

            let done = try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: ann)
            #expect(done.status == .created, "\(done.text)")
            #expect(done.json["pointsAwarded"] as? Int == 5 && done.json["totalPoints"] as? Int == 5)
            #expect((done.json["position"] as? Int ?? 0) > 0)
            let again = try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: ann)
            #expect(again.json["totalPoints"] as? Int == 10)

            tasks = try await client.send(.get, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", token: bob)
            let first = (tasks.json["tasks"] as? [[String: Any]])?.first
            #expect(first?["priority"] as? String == "low")
            #expect((first?["lastDoneBy"] as? [String: Any])?["displayName"] as? String == "Ann")
            clock.advance(by: 86_400)
            tasks = try await client.send(.get, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", token: bob)
            #expect((tasks.json["tasks"] as? [[String: Any]])?.first?["priority"] as? String == "high", "a day later the daily task is due")

            let board = try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: bob)
            let rows = (board.json["members"] as? [[String: Any]])?.map { "\($0["displayName"] ?? "")=\($0["points"] ?? "")" }
            #expect(rows == ["Ann=10", "Bob=0"])

            let history = try await client.send(.get, "/v1/houses/\(houseId)/history?limit=1", token: bob)
            #expect((history.json["items"] as? [[String: Any]])?.count == 1)
            let next = try #require(history.json["next"] as? String)
            let rest = try await client.send(.get, "/v1/houses/\(houseId)/history?limit=50&cursor=\(next)", token: bob)
            #expect((rest.json["items"] as? [[String: Any]])?.count == 1 && rest.json["next"] == nil)
        }
    }

    @Test func roomsAndTasksChangeAndDisappear() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, _, houseId, roomId, taskId) = try await seededHouse(client)
            let renamed = try await client.send(.patch, "/v1/houses/\(houseId)/rooms/\(roomId)", json: ["name": "Galley"], token: ann)
            #expect(renamed.status == .ok && renamed.json["events"] as? [String] == ["household.roomRenamed"])
            let edited = try await client.send(.patch, "/v1/houses/\(houseId)/tasks/\(taskId)", json: ["points": 8], token: ann)
            #expect(edited.status == .ok, "\(edited.text)")
            var tasks = try await client.send(.get, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", token: ann)
            #expect((tasks.json["tasks"] as? [[String: Any]])?.first?["points"] as? Int == 8)
            #expect(try await client.send(.delete, "/v1/houses/\(houseId)/tasks/\(taskId)", token: ann).status == .noContent)
            tasks = try await client.send(.get, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", token: ann)
            #expect((tasks.json["tasks"] as? [[String: Any]])?.isEmpty == true)
            #expect(try await client.send(.delete, "/v1/houses/\(houseId)/rooms/\(roomId)", token: ann).status == .noContent)
            let gone = try await client.send(.get, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", token: ann)
            #expect(gone.status == .notFound && gone.code == "room_not_found")
        }
    }

    @Test func refusalsAreProblemsWithStableCodes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, bob, houseId, roomId, taskId) = try await seededHouse(client)
            let eve = try await client.register("eve@example.org", displayName: "Eve").token
            let cases: [(Reply, Int, String)] = [
                (try await client.send(.get, "/v1/houses/\(houseId)", token: eve), 403, "not_a_member"),
                (try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: eve), 403, "not_a_member"),
                (try await client.send(.get, "/v1/houses/\(houseId)/history", token: eve), 403, "not_a_member"),
                (try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: eve), 403, "not_a_member"),
                (try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Attic"], token: eve), 403, "not_a_member"),
                (try await client.send(.get, "/v1/houses/\(UUID().uuidString.lowercased())", token: ann), 404, "house_not_found"),
                (try await client.send(.get, "/v1/me/house", token: eve), 404, "not_in_house"),
                (try await client.send(.post, "/v1/houses", json: ["name": "Second"], token: ann), 409, "already_in_house"),
                (try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "kitchen"], token: bob), 409, "room_name_taken"),
                (try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                       json: ["name": "Mop", "frequencyDays": 0, "points": 101], token: bob), 422, "validation_failed"),
                (try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "   "], token: bob), 422, "validation_failed"),
                (try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(UUID().uuidString)/completions", token: bob), 404, "task_not_found"),
                (try await client.send(.post, "/v1/houses/join", json: ["joinCode": "not-the-code-xxxxxxxxxxxx"], token: eve), 404, "wrong_join_code"),
                (try await client.send(.post, "/v1/houses", json: ["name": 42], token: eve), 400, "malformed_request"),
                (try await client.send(.post, "/v1/houses", json: [:] as [String: Any], token: eve), 400, "malformed_request"),
                (try await client.send(.post, "/v1/houses", raw: "{not json", token: eve), 400, "malformed_request"),
                (try await client.send(.get, "/v1/houses/\(houseId)/history?limit=501", token: bob), 400, "invalid_limit"),
                (try await client.send(.get, "/v1/houses/\(houseId)/history?cursor=bogus", token: bob), 400, "invalid_cursor"),
                (try await client.send(.get, "/v1/houses/\(houseId)", token: nil), 401, "unauthorized"),
            ]
            for (reply, status, code) in cases {
                #expect(reply.status.code == status && reply.code == code && reply.isProblem, "\(reply.text)")
            }
            let fields = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                               json: ["name": "Mop", "frequencyDays": 0, "points": 101], token: bob)
            #expect(Set(fields.fieldsInError) == ["frequencyDays", "points"])
        }
    }

    @Test func joinCodesRotateAndTheLastMemberOutClosesTheHouse() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, bob, houseId, _, _) = try await seededHouse(client)
            let old = try #require(try await client.send(.get, "/v1/houses/\(houseId)", token: ann).json["joinCode"] as? String)
            let rotated = try await client.send(.post, "/v1/houses/\(houseId)/join-code", token: ann)
            let new = try #require(rotated.json["joinCode"] as? String)
            #expect(new != old)
            let eve = try await client.register("eve@example.org", displayName: "Eve").token
            #expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": old], token: eve).code == "wrong_join_code")
            #expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": new], token: eve).status == .ok)
            for token in [ann, bob, eve] {
                #expect(try await client.send(.post, "/v1/houses/\(houseId)/leave", token: token).status == .noContent)
            }
            #expect(try await client.send(.get, "/v1/houses/\(houseId)", token: ann).code == "house_not_found")
            #expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": new], token: ann).code == "wrong_join_code")
            #expect(try await client.send(.post, "/v1/houses", json: ["name": "Fresh start"], token: ann).status == .created)
        }
    }

    @Test func guessingJoinCodesIsRateLimited() async throws {
        // Recorded pauses: over the limit an attempt waits before its check (`JoinThrottle`).
        let server = try TestServer(pauses: RecordedPauses())
        defer { server.remove() }
        try await server.test { client in
            let eve = try await client.register("eve@example.org", displayName: "Eve").token
            var last: Reply?
            for attempt in 0..<12 {
                last = try await client.send(.post, "/v1/houses/join", json: ["joinCode": "guess-\(attempt)-xxxxxxxxxxxxxxxxxx"], token: eve)
            }
            #expect(last?.status == .tooManyRequests && last?.code == "too_many_attempts")
            #expect(Int(last?.headers[.retryAfter] ?? "") ?? 0 > 0)
        }
    }

    @Test func aRetriedCreateAnswersWithTheFirstHouse() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let key = UUID().uuidString
            let first = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann, key: key)
            let retry = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann, key: key)
            #expect(first.status == .created && retry.status == .created)
            #expect(first.json["houseId"] as? String == retry.json["houseId"] as? String)
            #expect(first.json["joinCode"] as? String == retry.json["joinCode"] as? String)
            #expect(first.json["position"] as? Int == retry.json["position"] as? Int)
        }
    }
}

/// Issue 10 item 4: house, room and task names follow the one text policy.
extension HouseholdRouteTests {
    @Test(.timeLimit(.minutes(3)))
    func aNameWithAControlCharacterOrABidiOverrideIsA422NamingTheField() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, _, houseId, roomId, taskId) = try await seededHouse(client)
            let newcomer = try await client.register("cat@example.org", displayName: "Cat").token
            let refusals = [
                try await client.send(.post, "/v1/houses", json: ["name": "Canal\u{0}House"], token: newcomer),
                try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "\u{1B}[2JHall"], token: ann),
                try await client.send(.patch, "/v1/houses/\(houseId)/rooms/\(roomId)", json: ["name": "Hall\u{7}"], token: ann),
                try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                      json: ["name": "Mop\u{202E}gpj.exe", "frequencyDays": 7, "points": 1], token: ann),
                try await client.send(.patch, "/v1/houses/\(houseId)/tasks/\(taskId)", json: ["name": "Dishes\u{2066}"], token: ann),
            ]
            for reply in refusals {
                #expect(reply.status == .unprocessableContent && reply.code == "validation_failed" && reply.isProblem, "\(reply.text)")
                #expect(reply.fieldsInError == ["name"], "\(reply.text)")
            }
            let house = try await client.send(.get, "/v1/houses/\(houseId)", token: ann)
            #expect((house.json["rooms"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Kitchen"], "nothing was stored")
        }
    }
}
