import Foundation
import TestSupport
import Testing

/// `GET /v1/live` against the real `logbook serve` (SPEC §1 "Live updates", issue 14).
@Suite("Live updates over SSE (server process)", .timeLimit(.minutes(4)))
struct LiveRouteTests {
    @Test func aHousematesStreamGetsACompletionOnlyOnceTheReadModelHasIt() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path)
        let house = try await LiveHouseFixture.make(server.client, members: ["Ann", "Bob"])
        let stream = try LiveStreamClient(address: server.address, query: "topics=\(house.topic)", token: house.tokens[1])
        try await stream.waitUntilOpen()

        // Several, so a notification that overtook its read model would likely show once.
        for round in 1...5 {
            let position = try await house.complete(by: 0)
            let got = try await stream.wait { $0.positions(of: "household.taskCompleted").contains(position) }
            // Right on receipt, Bob's query already shows the completion.
            let history = try await server.client.send("GET", "/v1/houses/\(house.houseId)/history", token: house.tokens[1])
            #expect(history.status == 200)
            #expect(history.list("items").count == round, "the history holds completion \(round) when its event arrives")
            let event = try #require(got.events.first { $0.position == position })
            #expect(event == .init(id: position, type: "household.taskCompleted", topic: house.topic, position: position))
        }
        // A graceful shutdown ends the open stream cleanly and is not held up by it.
        #expect(try await server.terminate())
        let closed = try await stream.wait { $0.ended }
        #expect(closed.comments.contains("closed: shutdown"), "\(closed.comments)")
    }

    @Test func aTopicTheCallerMayNotWatchIsRefusedBeforeTheStreamStarts() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path)
        let house = try await LiveHouseFixture.make(server.client, members: ["Ann"])
        let outsider = try await server.client.register("cat-\(UUID().uuidString.prefix(8))@example.org", displayName: "Cat")

        let refused = try LiveStreamClient(address: server.address, query: "topics=\(house.topic)", token: outsider.token)
        let answer = try await refused.wait { $0.ended }
        #expect(answer.status == 403)
        #expect(answer.body.contains("\"code\":\"not_a_member\""), "\(answer.body)")
        #expect(answer.events.isEmpty && !answer.comments.contains("live"))

        // An unknown house is the household routes' 404; no token is 401.
        let unknown = try await server.client.send("GET", "/v1/live?topics=house:\(UUID().uuidString.lowercased())", token: outsider.token)
        #expect(unknown.status == 404 && unknown.json["code"] as? String == "house_not_found", "\(unknown.text)")
        let anonymous = try await server.client.send("GET", "/v1/live?topics=\(house.topic)")
        #expect(anonymous.status == 401 && anonymous.json["code"] as? String == "unauthorized", "\(anonymous.text)")
        // One refused topic refuses the stream, whatever else it asks for.
        let mixed = try await server.client.send("GET", "/v1/live?topics=me,\(house.topic)", token: outsider.token)
        #expect(mixed.status == 403, "\(mixed.text)")
        #expect(try await server.terminate())
    }

    @Test func aMemberWhoLeavesStopsReceivingTheHousesEvents() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path)
        let house = try await LiveHouseFixture.make(server.client, members: ["Ann", "Bob", "Cat"])
        let bob = try LiveStreamClient(address: server.address, query: "topics=\(house.topic)", token: house.tokens[1])
        let cat = try LiveStreamClient(address: server.address, query: "topics=\(house.topic)", token: house.tokens[2])
        try await bob.waitUntilOpen()
        try await cat.waitUntilOpen()

        let before = try await house.complete(by: 0)
        try await cat.wait { $0.positions(of: "household.taskCompleted").contains(before) }

        let left = try await server.client.send("POST", "/v1/houses/\(house.houseId)/leave", token: house.tokens[2])
        try #require(left.status == 204, "leave: \(left.text)")
        let after = try await house.complete(by: 0)

        let stayed = try await bob.wait { $0.positions(of: "household.taskCompleted").contains(after) }
        #expect(stayed.positions(of: "household.taskCompleted") == [before, after])
        #expect(stayed.events.contains { $0.type == "household.memberLeft" }, "a member sees the leave")
        // By the time Bob has the later completion, Cat's stream has ended without it.
        let gone = try await cat.wait { $0.ended }
        #expect(gone.positions(of: "household.taskCompleted") == [before])
        #expect(!gone.events.contains { $0.position >= after })
        #expect(gone.comments.contains("closed: revoked"), "\(gone.comments)")
        // And Cat cannot subscribe again.
        let again = try await server.client.send("GET", "/v1/live?topics=\(house.topic)", token: house.tokens[2])
        #expect(again.status == 403, "\(again.text)")
        #expect(try await server.terminate())
    }

    @Test func resumingByLastEventIDAfterARestartHasNoGapAndNoDuplicate() async throws {
        let directory = TemporaryDataDirectory()
        var server = try await ServerProcess(dataDirectory: directory.path)
        let house = try await LiveHouseFixture.make(server.client, members: ["Ann", "Bob"])
        var expected: [UInt64] = []
        let first = try LiveStreamClient(address: server.address, query: "topics=\(house.topic)", token: house.tokens[1])
        try await first.waitUntilOpen()
        for _ in 1...3 { expected.append(try await house.complete(by: 0)) }
        let seen = try await first.wait { $0.positions(of: "household.taskCompleted").count == 3 }
        let lastID = try #require(seen.events.last?.id)
        // The stream's own events, in order, with the ids the client resumes by.
        #expect(seen.events.map(\.id) == expected && seen.events.map(\.position) == expected)
        first.disconnect()

        // Missed while away: two before the restart, two after it before resuming.
        for _ in 1...2 { expected.append(try await house.complete(by: 0)) }
        #expect(try await server.terminate())
        server = try await ServerProcess(dataDirectory: directory.path)
        let restarted = LiveHouseFixture(houseId: house.houseId, taskId: house.taskId, tokens: house.tokens, client: server.client)
        for _ in 1...2 { expected.append(try await restarted.complete(by: 1)) }

        let resumed = try LiveStreamClient(
            address: server.address, query: "topics=\(house.topic)", token: house.tokens[1], lastEventID: String(lastID))
        try await resumed.waitUntilOpen()
        // And live after the catch-up, while it may still be reading the log.
        async let live = (0..<3).asyncMap { _ in try await restarted.complete(by: 0) }
        expected += try await live
        let all = try await resumed.wait { $0.events.count >= expected.count - 3 && $0.events.last?.position == expected.last }
        #expect(all.events.map(\.position) == Array(expected.dropFirst(3)), "every house event after \(lastID), once, in order")
        #expect(try await server.terminate())
    }
}

extension Sequence where Element: Sendable {
    /// `transform` of each element, in order; all at once when `concurrently`.
    func asyncMap<T: Sendable>(concurrently: Bool = false, _ transform: @escaping @Sendable (Element) async throws -> T) async throws -> [T] {
        guard concurrently else {
            var results: [T] = []
            for element in self { results.append(try await transform(element)) }
            return results
        }
        return try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for (index, element) in enumerated() { group.addTask { (index, try await transform(element)) } }
            var results: [(Int, T)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
