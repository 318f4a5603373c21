import Foundation
import TestSupport
import Testing

/// `GET /v1/admin/events/live`, the operators' live tail, against the real `logbook serve`
/// (issue 15): filters, the frames' content, resume by `Last-Event-ID`, limits and refusals.
@Suite("Admin live tail over SSE (server process)", .timeLimit(.minutes(4)))
struct AdminLiveRouteTests {
    static let operatorToken = "operator-\(UUID().uuidString)"
    static let path = "/v1/admin/events/live"

    /// A server with the operator token, and whatever else `environment` sets.
    private static func server(_ directory: String, environment: [String: String] = [:]) async throws -> ServerProcess {
        try await ServerProcess(
            dataDirectory: directory,
            environment: ["LOGBOOK_OPERATOR_TOKEN": operatorToken, "LOGBOOK_SECRET_KEY": ""].merging(environment) { $1 })
    }

    @Test func aFilteredTailReceivesExactlyTheMatchingEventsOfCommandsMadeAfterItOpened() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await Self.server(directory.path)
        defer { server.kill() }
        let house = try await LiveHouseFixture.make(server.client, members: ["Ann", "Bob"])
        let bob = try await userId(server.client, token: house.tokens[1])
        let opened = try await settledPosition(server.client)
        let bobsCompletions = try LiveStreamClient(
            address: server.address, path: Self.path, query: "type=household.taskCompleted&actor=\(bob)", token: Self.operatorToken)
        let houseStream = try LiveStreamClient(
            address: server.address, path: Self.path, query: "stream=house-\(house.houseId)", token: Self.operatorToken)
        let accounts = try LiveStreamClient(address: server.address, path: Self.path, query: "category=account", token: Self.operatorToken)
        for stream in [bobsCompletions, houseStream, accounts] { try await stream.waitUntilOpen() }

        // Completions by both, another house's events, and an account: each tail must pick its own.
        for member in [0, 1, 1, 0, 1] { try await house.complete(by: member) }
        let other = try await LiveHouseFixture.make(server.client, members: ["Cat"])
        try await other.complete(by: 0)
        let email = "dora-\(UUID().uuidString.prefix(8))@example.org"
        _ = try await server.client.register(email, displayName: "Dora Explorer")

        let after = "fromPosition=\(opened + 1)"
        for (stream, query) in [
            (bobsCompletions, "type=household.taskCompleted&actor=\(bob)&\(after)"),
            (houseStream, "stream=house-\(house.houseId)&\(after)"),
            (accounts, "category=account&\(after)"),
        ] {
            let expected = try await adminItems(server.client, query)
            try #require(!expected.isEmpty, "\(query) selects something")
            let positions = expected.compactMap { ($0["position"] as? NSNumber)?.uint64Value }
            let got = try await stream.wait { $0.events.last.map { $0.id >= positions.last! } ?? false }
            let frames = got.frames
            #expect(frames.map(\.id) == positions, "\(query): exactly the matching events after the tail opened, in order")
            // Each frame's data is the event as GET /v1/admin/events lists it, field for field.
            for (frame, item) in zip(frames, expected) {
                #expect(frame.type == item["type"] as? String)
                #expect(NSDictionary(dictionary: frame.data) == NSDictionary(dictionary: item), "\(frame.id): \(frame.data) vs \(item)")
            }
        }
        #expect(await bobsCompletions.snapshot.frames.count == 3, "Bob completed three times")
        // Personal data stays sealed in the tail as in the log.
        let registration = try #require(await accounts.snapshot.frames.first { $0.type == "account.registered" })
        let data = try JSONSerialization.data(withJSONObject: registration.data["data"] as? [String: Any] ?? [:])
        let text = String(decoding: data, as: UTF8.self)
        // Quoted, as a plain field shows it: unquoted, a short name can turn up inside base64.
        #expect(!text.contains(email) && !text.contains("\"Dora\""), "\(text)")
        #expect(text.contains("sealed:v1:"), "\(text)")
        #expect(try await server.terminate())
    }

    @Test func resumingByLastEventIDHasNoGapAndNoDuplicate() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await Self.server(directory.path)
        defer { server.kill() }
        let house = try await LiveHouseFixture.make(server.client, members: ["Ann", "Bob"])
        _ = try await settledPosition(server.client)
        let query = "type=household.taskCompleted"
        let first = try LiveStreamClient(address: server.address, path: Self.path, query: query, token: Self.operatorToken)
        try await first.waitUntilOpen()
        var expected: [UInt64] = []
        for _ in 1...3 { expected.append(try await house.complete(by: 0)) }
        let seen = try await first.wait { $0.events.count == 3 }
        #expect(seen.events.map(\.id) == expected)
        first.disconnect()

        // Missed while away, among events of other types the filter leaves out.
        for member in [1, 0] {
            expected.append(try await house.complete(by: member))
            let room = try await server.client.send("POST", "/v1/houses/\(house.houseId)/rooms", json: ["name": "Room \(member)"], token: house.tokens[0])
            #expect(room.status == 201, "\(room.text)")
        }
        let resumed = try LiveStreamClient(
            address: server.address, path: Self.path, query: query, token: Self.operatorToken, lastEventID: String(expected[2]))
        try await resumed.waitUntilOpen()
        // And live after the catch-up, while it may still be reading the log.
        async let live = (0..<3).asyncMap { _ in try await house.complete(by: 1) }
        expected += try await live
        let all = try await resumed.wait { $0.events.last?.id == expected.last }
        #expect(all.events.map(\.id) == Array(expected.dropFirst(3)), "every completion after \(expected[2]), once, in order")

        // The query parameter resumes the same way (for EventSource, which cannot set headers).
        let byQuery = try LiveStreamClient(
            address: server.address, path: Self.path, query: "\(query)&lastEventId=\(expected[4])", token: Self.operatorToken)
        let caughtUp = try await byQuery.wait { $0.events.last?.id == expected.last }
        #expect(caughtUp.events.map(\.id) == Array(expected.dropFirst(5)))
        #expect(try await server.terminate())
    }

    @Test func refusalsComeAsProblemsBeforeTheStreamAndIdleStreamsGetKeepAlives() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await Self.server(
            directory.path, environment: ["LOGBOOK_LIVE_KEEPALIVE_SECONDS": "1", "LOGBOOK_LIVE_STREAMS_PER_USER_MAX": "2"])
        defer { server.kill() }
        let client = server.client
        let user = try await client.register("eve-\(UUID().uuidString.prefix(8))@example.org", displayName: "Eve")

        let anonymous = try await client.send("GET", Self.path)
        #expect(anonymous.status == 401 && anonymous.json["code"] as? String == "unauthorized", "\(anonymous.text)")
        for token in [user.token, "not-the-operator-token"] {
            let refused = try LiveStreamClient(address: server.address, path: Self.path, query: "", token: token)
            let answer = try await refused.wait { $0.ended }
            #expect(answer.status == 403, "\(answer.body)")
            #expect(answer.body.contains("\"code\":\"not_an_operator\""), "\(answer.body)")
            #expect(answer.events.isEmpty && !answer.comments.contains("live"), "no stream starts")
        }
        let head = try await settledPosition(client)
        for bad in ["lastEventId=\(head + 1_000)", "lastEventId=-1"] {
            let reply = try await client.send("GET", Self.path + "?" + bad, token: Self.operatorToken)
            #expect(reply.status == 400 && reply.json["code"] as? String == "invalid_last_event_id", "\(bad): \(reply.text)")
        }

        // An idle tail hears a keep-alive; the operator's streams count against one limit.
        let idle = try LiveStreamClient(address: server.address, path: Self.path, query: "type=nothing.happens", token: Self.operatorToken)
        try await idle.waitUntilOpen()
        try await idle.wait(timeout: .seconds(10)) { $0.comments.contains("keep-alive") }
        let second = try LiveStreamClient(address: server.address, path: Self.path, query: "", token: Self.operatorToken)
        try await second.waitUntilOpen()
        let third = try await client.send("GET", Self.path, token: Self.operatorToken)
        #expect(third.status == 429 && third.json["code"] as? String == "too_many_streams", "\(third.text)")
        #expect(try await server.terminate())
        let closed = try await idle.wait { $0.ended }
        #expect(closed.comments.contains("closed: shutdown"), "\(closed.comments)")
    }

    @Test func withoutAnOperatorTokenTheRouteDoesNotExist() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_OPERATOR_TOKEN": "", "LOGBOOK_SECRET_KEY": ""])
        defer { server.kill() }
        let reply = try await server.client.send("GET", Self.path, token: "anything")
        #expect(reply.status == 404, "\(reply.text)")
        #expect(try await server.terminate())
    }

    /// The position the read models include once they include the whole log: a tail opened
    /// after this starts after every event so far.
    private func settledPosition(_ client: HTTPClient) async throws -> UInt64 {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let health = try await client.send("GET", "/health")
            let log = (health.json["logPosition"] as? NSNumber)?.uint64Value
            if let log, log == (health.json["projectedPosition"] as? NSNumber)?.uint64Value { return log }
            try #require(ContinuousClock.now < deadline, "the read models catch up: \(health.text)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The caller's user id.
    private func userId(_ client: HTTPClient, token: String) async throws -> String {
        let me = try await client.send("GET", "/v1/me", token: token)
        return try #require(me.json["userId"] as? String, "\(me.text)")
    }

    /// Every item of `GET /v1/admin/events?query`, across its pages.
    private func adminItems(_ client: HTTPClient, _ query: String) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor: String?
        repeat {
            let reply = try await client.send("GET", "/v1/admin/events?\(query)" + (cursor.map { "&cursor=\($0)" } ?? ""), token: Self.operatorToken)
            try #require(reply.status == 200, "\(reply.text)")
            items += reply.list("items")
            cursor = reply.json["next"] as? String
        } while cursor != nil
        return items
    }
}
