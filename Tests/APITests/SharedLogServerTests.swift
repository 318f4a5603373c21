@testable import API
import Foundation
import TestSupport
import Testing

/// SPEC §3a with real processes: `logbook serve --event-store postgres://…` on two data
/// directories, one PostgreSQL log. Each server builds its own read models from the shared log.
///
/// The servers share the secret key (`LOGBOOK_SECRET_KEY`), as every server on one log must; the
/// personal-data keys are in the log's database, shared (ADR 0005).
@Suite("Servers sharing a PostgreSQL log", .timeLimit(.minutes(5)),
       .enabled(if: PrivatePostgres.isInstalled || PrivatePostgres.isRequired))
struct SharedLogServerTests {
    static let secret = Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()

    /// Starts a server on the shared log and waits until it is ready (its read models caught up
    /// with the log): as a load balancer would before sending it traffic.
    static func start(_ directory: String, log url: String) async throws -> ServerProcess {
        let server = try await ServerProcess(dataDirectory: directory, arguments: ["--event-store", url], environment: ["LOGBOOK_SECRET_KEY": secret])
        try await ready(server)
        return server
    }

    /// Waits until `server`'s read models have caught up with the log.
    static func ready(_ server: ServerProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await server.client.send("GET", "/health/ready").status != 200 {
            try #require(ContinuousClock.now < deadline, "the server became ready")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Polls `path` on `client` until `accept` holds or 20 s pass; the last reply either way.
    static func eventually(
        _ client: HTTPClient, _ path: String, token: String, _ accept: (HTTPReply) -> Bool
    ) async throws -> HTTPReply {
        try await eventually({ try await client.send("GET", path, token: token) }, accept)
    }

    /// Sends `request` until its reply satisfies `accept` or 20 s pass; the last reply either way.
    static func eventually(_ request: () async throws -> HTTPReply, _ accept: (HTTPReply) -> Bool) async throws -> HTTPReply {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let reply = try await request()
            if accept(reply) || ContinuousClock.now > deadline { return reply }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A house "Shared" made by `owner` through `ownerServer` and joined by `joiner` through
    /// `joinerServer`: its id. Another server knows the join code once its read models have
    /// followed the shared log that far, so until then (20 s at most) its 404 is asked again.
    static func house(by owner: String, on ownerServer: HTTPClient, joinedBy joiner: String, on joinerServer: HTTPClient) async throws -> String {
        let house = try await ownerServer.send("POST", "/v1/houses", json: ["name": "Shared"], token: owner)
        let join = ["joinCode": house.json["joinCode"] as? String ?? ""]
        let joined = try await eventually({ try await joinerServer.send("POST", "/v1/houses/join", json: join, token: joiner) }) { $0.status != 404 }
        try #require(joined.status == 200, "\(joined.text)")
        return try #require(house.json["houseId"] as? String)
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
        let houseID = try await Self.house(by: ann.token, on: a.client, joinedBy: bob.token, on: a.client)
        let room = try await a.client.send("POST", "/v1/houses/\(houseID)/rooms", json: ["name": "Kitchen"], token: ann.token)
        let roomID = try #require(room.json["roomId"] as? String)
        let task = try await a.client.send("POST", "/v1/houses/\(houseID)/rooms/\(roomID)/tasks",
                                           json: ["name": "Dishes", "frequencyDays": 1, "points": 3], token: ann.token)
        let completions = "/v1/houses/\(houseID)/tasks/\(try #require(task.json["taskId"] as? String))/completions"

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

    /// Personal data sealed on one server opens on the other, whichever made the key, and an
    /// erasure on one is carried out on the other: its key cache and its read models.
    @Test func personalDataMadeOnOneServerReadsOnTheOtherAndAnErasureOnOneErasesOnBoth() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let first = TemporaryDataDirectory(), second = TemporaryDataDirectory()
        let a = try await Self.start(first.path, log: url), b = try await Self.start(second.path, log: url)
        let ann = try await a.client.register("ann@example.org", displayName: "Ann")
        let eve = try await b.client.register("eve@example.org", displayName: "Eve")
        let houseID = try await Self.house(by: ann.token, on: a.client, joinedBy: eve.token, on: b.client)

        // Each server opens the names sealed under keys the other made.
        func names(_ reply: HTTPReply) -> [String] { reply.list("members").compactMap { $0["displayName"] as? String }.sorted() }
        let path = "/v1/houses/\(houseID)"
        for (server, token) in [(a, ann.token), (b, ann.token)] {
            let seen = try await Self.eventually(server.client, path, token: token) { names($0) == ["Ann", "Eve"] }
            #expect(names(seen) == ["Ann", "Eve"], "\(seen.text)")
        }
        #expect(try await a.client.send("GET", "/v1/me", token: eve.token).json["email"] as? String == "eve@example.org")
        // Both servers have read Eve's key by now: the erasure must reach the other's cache.
        let erased = try await b.client.send("DELETE", "/v1/me", json: ["password": "correct horse"], token: eve.token)
        #expect(erased.status == 204, "\(erased.text)")
        for server in [a, b] {
            let seen = try await Self.eventually(server.client, path, token: ann.token) { names($0) == ["Ann", "Deleted user"] }
            #expect(names(seen) == ["Ann", "Deleted user"], "\(seen.text)")
        }
        // A server started afterwards never sees Eve's data either.
        let third = TemporaryDataDirectory()
        let c = try await Self.start(third.path, log: url)
        #expect(names(try await c.client.send("GET", path, token: ann.token)) == ["Ann", "Deleted user"])
        for server in [a, b, c] { #expect(try await server.terminate(), "shut down cleanly") }
    }

    /// Two servers started at once with `--demo` on one empty log: one seeds it, the other waits
    /// its turn, finds the log no longer empty and seeds nothing; both serve the demo.
    @Test func serversStartingTogetherOnAnEmptyLogSeedItOnce() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let first = TemporaryDataDirectory(), second = TemporaryDataDirectory()
        let servers = try await withThrowingTaskGroup(of: ServerProcess.self) { group in
            for path in [first.path, second.path] {
                group.addTask {
                    try await ServerProcess(dataDirectory: path, arguments: ["--event-store", url, "--demo"], environment: ["LOGBOOK_SECRET_KEY": Self.secret])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let outputs = servers.map { $0.lines.output }
        #expect(outputs.filter { $0.contains("demo: seeded") }.count == 1, "\(outputs)")
        #expect(outputs.filter { $0.contains("is not empty") }.count == 1, "\(outputs)")
        for server in servers {
            try await Self.ready(server)
            let login = try await server.client.send("POST", "/v1/sessions", json: ["email": "ann@example.org", "password": DemoSeed.password])
            #expect(login.status == 201, "\(login.text)")
        }
        for server in servers { #expect(try await server.terminate(), "shut down cleanly") }
    }

    /// `logbook-admin` on a shared log: `replay` rebuilds a server's read models from PostgreSQL,
    /// opening sealed data with the keys in the database; `export` then `import` move the log
    /// into a data directory with the same chain head; a verb of a data directory's own log
    /// refuses instead of reading an empty one.
    @Test func theAdminToolRebuildsExportsAndRefusesOnTheSharedLog() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let directory = TemporaryDataDirectory()
        var server = try await Self.start(directory.path, log: url)
        let ann = try await server.client.register("ann@example.org", displayName: "Ann")
        let house = try await server.client.send("POST", "/v1/houses", json: ["name": "Shared"], token: ann.token)
        let path = "/v1/houses/\(try #require(house.json["houseId"] as? String))"
        #expect(try await server.terminate(), "shut down cleanly")

        let replay = try await AdminTool.run(
            ["replay", "--data-dir", directory.path, "--event-store", url], unsetting: ["LOGBOOK_EVENT_STORE"], setting: ["LOGBOOK_SECRET_KEY": Self.secret])
        #expect(replay.status == 0 && replay.stdout.contains("rebuilt household.houses") && !replay.output.contains("failed"), "\(replay.output)")
        server = try await Self.start(directory.path, log: url)
        let members = try await server.client.send("GET", path, token: ann.token).list("members").compactMap { $0["displayName"] as? String }
        #expect(members == ["Ann"], "the rebuilt read models opened the name with the database's key")
        #expect(try await server.terminate(), "shut down cleanly")

        let file = NSTemporaryDirectory() + "shared-export-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: file) }
        let exported = try await AdminTool.run(["export", "--event-store", url, "--output", file])
        #expect(exported.status == 0, "\(exported.output)")
        let copy = TemporaryDataDirectory()
        let imported = try await AdminTool.run(["import", file, "--data-dir", copy.path], unsetting: ["LOGBOOK_EVENT_STORE"])
        #expect(imported.status == 0, "\(imported.output)")
        let shared = try await AdminTool.run(["head", "--event-store", url])
        let local = try await AdminTool.run(["head", "--data-dir", copy.path], unsetting: ["LOGBOOK_EVENT_STORE"])
        #expect(shared.status == 0 && !shared.stdout.isEmpty && shared.stdout == local.stdout, "the same chain: \(shared.output) \(local.output)")

        for verb in [["stats"], ["backup", NSTemporaryDirectory() + "never-" + UUID().uuidString], ["records"]] {
            let refused = try await AdminTool.run(verb + ["--data-dir", directory.path, "--event-store", url])
            #expect(refused.status == 2 && refused.stderr.contains("works on the data directory's own log"), "\(verb): \(refused.output)")
        }
    }
}
