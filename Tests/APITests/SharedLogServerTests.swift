import Foundation
import TestSupport
import Testing

/// SPEC §3a with real processes: `logbook serve --event-store postgres://…` on two data
/// directories, one PostgreSQL log. Each server builds its own read models from the shared log.
///
/// The servers share the secret key (`LOGBOOK_SECRET_KEY`) and, copied before the second starts,
/// the personal-data keys of the accounts made so far: the key store is still per data directory
/// (ADR 0004), so accounts are made before the copy.
@Suite("Servers sharing a PostgreSQL log", .timeLimit(.minutes(5)),
       .enabled(if: PrivatePostgres.isInstalled || PrivatePostgres.isRequired))
struct SharedLogServerTests {
    static let secret = Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()

    /// Starts a server on the shared log and waits until it is ready (its read models caught up
    /// with the log): as a load balancer would before sending it traffic.
    static func start(_ directory: String, log url: String) async throws -> ServerProcess {
        let server = try await ServerProcess(dataDirectory: directory, arguments: ["--event-store", url], environment: ["LOGBOOK_SECRET_KEY": secret])
        let deadline = ContinuousClock.now + .seconds(60)
        while try await server.client.send("GET", "/health/ready").status != 200 {
            try #require(ContinuousClock.now < deadline, "the server became ready")
            try await Task.sleep(for: .milliseconds(50))
        }
        return server
    }

    /// Polls `path` on `client` until `accept` holds or 20 s pass; the last reply either way.
    static func eventually(
        _ client: HTTPClient, _ path: String, token: String, _ accept: (HTTPReply) -> Bool
    ) async throws -> HTTPReply {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let reply = try await client.send("GET", path, token: token)
            if accept(reply) || ContinuousClock.now > deadline { return reply }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func points(_ reply: HTTPReply) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: reply.list("members").compactMap { member in
            (member["userId"] as? String).map { ($0, member["points"] as? Int ?? -1) }
        })
    }

    @Test func twoServersShareTheLogLoseNothingWhenOneIsKilledAndTheRestartedOneCatchesUp() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let first = TemporaryDataDirectory(), second = TemporaryDataDirectory()
        var a = try await Self.start(first.path, log: url)
        let ann = try await a.client.register("ann@example.org", displayName: "Ann")
        let bob = try await a.client.register("bob@example.org", displayName: "Bob")
        let house = try await a.client.send("POST", "/v1/houses", json: ["name": "Shared"], token: ann.token)
        let houseID = try #require(house.json["houseId"] as? String)
        let joined = try await a.client.send("POST", "/v1/houses/join", json: ["joinCode": house.json["joinCode"] as? String ?? ""], token: bob.token)
        #expect(joined.status == 200, "\(joined.text)")
        let room = try await a.client.send("POST", "/v1/houses/\(houseID)/rooms", json: ["name": "Kitchen"], token: ann.token)
        let roomID = try #require(room.json["roomId"] as? String)
        let task = try await a.client.send("POST", "/v1/houses/\(houseID)/rooms/\(roomID)/tasks",
                                           json: ["name": "Dishes", "frequencyDays": 1, "points": 3], token: ann.token)
        let completions = "/v1/houses/\(houseID)/tasks/\(try #require(task.json["taskId"] as? String))/completions"

        try FileManager.default.copyItem(atPath: first.path + "/keys", toPath: second.path + "/keys")
        let b = try await Self.start(second.path, log: url)

        // An account made on one server logs in on the other.
        let bobOnB = try await b.client.login("bob@example.org", "correct horse")

        // The same Idempotency-Key through both servers appends once.
        let key = UUID().uuidString
        let once = try await a.client.send("POST", completions, token: ann.token, headers: ["Idempotency-Key": key])
        let again = try await b.client.send("POST", completions, token: ann.token, headers: ["Idempotency-Key": key])
        #expect(once.status == 201 && again.status == 201, "\(once.text) \(again.text)")
        #expect(once.json["position"] as? Int == again.json["position"] as? Int, "the retry answers the first append")

        // Completions through both at once: each acknowledged one counts once.
        let perServer = 10
        let acknowledged = try await withThrowingTaskGroup(of: Int.self) { group in
            for (client, token) in [(a.client, ann.token), (b.client, bobOnB)] {
                group.addTask {
                    var done = 0
                    for _ in 0..<perServer where try await client.send("POST", completions, token: token).status == 201 { done += 1 }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(acknowledged == 2 * perServer)
        let expected = [ann.userId: 3 * (perServer + 1), bob.userId: 3 * perServer]
        let scoreboard = "/v1/houses/\(houseID)/scoreboard"
        #expect(Self.points(try await Self.eventually(a.client, scoreboard, token: ann.token) { Self.points($0) == expected }) == expected)
        #expect(Self.points(try await Self.eventually(b.client, scoreboard, token: bobOnB) { Self.points($0) == expected }) == expected)

        // Kill one server while it is taking completions: everything it acknowledged is in the
        // log, the other serves on and sees it, and the killed one, restarted, catches up.
        let (victim, annToken) = (a.client, ann.token)
        let killedAfter = Task {
            var done = 0
            while true {
                guard let reply = try? await victim.send("POST", completions, token: annToken), reply.status == 201 else { return done }
                done += 1
            }
        }
        try await Task.sleep(for: .milliseconds(400))
        a.kill()
        let acknowledgedBeforeKill = await killedAfter.value
        #expect(acknowledgedBeforeKill > 0, "completions were acknowledged before the kill")
        #expect(try await b.client.send("POST", completions, token: bobOnB).status == 201, "the other server keeps serving")
        let annAtLeast = 3 * (perServer + 1 + acknowledgedBeforeKill)
        let afterKill = try await Self.eventually(b.client, scoreboard, token: bobOnB) { (Self.points($0)[ann.userId] ?? 0) >= annAtLeast }
        let annNow = Self.points(afterKill)[ann.userId] ?? 0
        // A completion in flight at the kill may have committed unacknowledged: at most one more.
        #expect(annNow >= annAtLeast && annNow <= annAtLeast + 3, "every acknowledged completion, nothing doubled")
        #expect(Self.points(afterKill)[bob.userId] == 3 * (perServer + 1))

        a = try await Self.start(first.path, log: url)
        let caughtUp = try await Self.eventually(a.client, scoreboard, token: ann.token) { Self.points($0) == Self.points(afterKill) }
        #expect(Self.points(caughtUp) == Self.points(afterKill), "the restarted server caught up with the shared log")
        let firstStopped = try await a.terminate(), secondStopped = try await b.terminate()
        #expect(firstStopped && secondStopped, "both shut down cleanly")
    }
}
