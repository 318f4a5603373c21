import Foundation
import TestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real `logbook` binary: starts on a free port, answers, and shuts down cleanly on SIGTERM.
@Suite("Server process", .timeLimit(.minutes(3)))
struct ServerProcessTests {
    @Test func theBinaryServesHealthAndStopsGracefullyOnSIGTERM() async throws {
        let directory = NSTemporaryDirectory() + "server-process-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = ChildProcess()
        process.executableURL = try ServerBinary.url()
        process.arguments = ["serve", "--data-dir", directory, "--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_BCRYPT_COST": "4"]) { $1 }
        let lines = LineCollector()
        process.collectOutput { lines.append($0) }
        try process.run()
        defer { process.kill() }

        let address = try await lines.waitForLine(prefix: "logbook listening on ", timeout: .seconds(120))
        let (data, response) = try await URLSession.shared.data(from: URL(string: "\(address)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let health = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(health?["status"] as? String == "ok")

        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning, "stopped within 20 s of SIGTERM")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test func aHouseholdIsPlayedOverHTTPAndSurvivesARestart() async throws {
        let directory = TemporaryDataDirectory()
        var server = try await ServerProcess(dataDirectory: directory.path)
        var client = server.client

        let ann = try await client.register("ann@example.org", displayName: "Ann")
        let bob = try await client.register("bob@example.org", displayName: "Bob")
        let cat = try await client.register("cat@example.org", displayName: "Cat")

        let created = try await client.send("POST", "/v1/houses", json: ["name": "Canal House"], token: ann.token)
        try #require(created.status == 201, "create: \(created.text)")
        let houseId = try #require(created.json["houseId"] as? String)
        let joinCode = try #require(created.json["joinCode"] as? String)
        let joined = try await client.send("POST", "/v1/houses/join", json: ["joinCode": joinCode], token: bob.token)
        try #require(joined.status == 200, "join: \(joined.text)")
        #expect(joined.json["houseId"] as? String == houseId)

        let room = try await client.send("POST", "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann.token)
        try #require(room.status == 201, "room: \(room.text)")
        let roomId = try #require(room.json["roomId"] as? String)
        let task = try await client.send("POST", "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                         json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: ann.token)
        try #require(task.status == 201, "task: \(task.text)")
        let taskId = try #require(task.json["taskId"] as? String)

        // Bob once, then Ann twice: Ann ends ahead, and the newest completion is hers.
        for token in [bob.token, ann.token, ann.token] {
            let done = try await client.send("POST", "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: token)
            #expect(done.status == 201, "complete: \(done.text)")
            #expect(done.json["pointsAwarded"] as? Int == 5)
        }

        let board = try await client.send("GET", "/v1/houses/\(houseId)/scoreboard", token: bob.token)
        #expect(board.status == 200, "\(board.text)")
        let standings = board.list("members").map { "\($0["displayName"] as? String ?? "?")=\($0["points"] as? Int ?? -1)" }
        #expect(standings == ["Ann=10", "Bob=5"])

        let history = try await client.send("GET", "/v1/houses/\(houseId)/history", token: ann.token)
        #expect(history.status == 200, "\(history.text)")
        let items = history.list("items")
        #expect(items.map { $0["displayName"] as? String } == ["Ann", "Ann", "Bob"], "newest first")
        #expect(items.allSatisfy { $0["taskName"] as? String == "Dishes" && $0["roomName"] as? String == "Kitchen" })
        let times = items.compactMap { $0["doneAt"] as? String }
        #expect(times.count == 3 && times == times.sorted(by: >))

        for path in ["/v1/houses/\(houseId)", "/v1/houses/\(houseId)/scoreboard", "/v1/houses/\(houseId)/history"] {
            let refused = try await client.send("GET", path, token: cat.token)
            #expect(refused.status == 403, "\(path) for a stranger: \(refused.text)")
        }

        #expect(try await server.terminate(), "exit 0 within 20 s of SIGTERM")
        let writeAheadFiles = ["checkpoint", "wal-0", "wal-1"].map { directory.path + "/log/" + $0 }
        #expect(writeAheadFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the log is in its write-ahead mode by default")

        // Same data directory, out of the write-ahead mode: the log and the read models (resuming
        // from their checkpoints) are still there, and so are the sessions.
        server = try await ServerProcess(dataDirectory: directory.path, arguments: ["--no-write-ahead"])
        client = server.client
        let after = try await client.send("GET", "/v1/houses/\(houseId)/scoreboard", token: bob.token)
        #expect(after.status == 200, "\(after.text)")
        #expect(after.list("members").map { "\($0["displayName"] as? String ?? "?")=\($0["points"] as? Int ?? -1)" } == standings)
        let relogged = try await client.login("ann@example.org", "correct horse")
        let historyAfter = try await client.send("GET", "/v1/houses/\(houseId)/history", token: relogged)
        #expect(historyAfter.list("items").count == 3)
        #expect(try await server.terminate())
        #expect(writeAheadFiles.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "the log left the mode")
    }

    @Test func demoSeedsAnEmptyLogAndItsPrintedLoginWorks() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path, arguments: ["--demo"])
        let emails = ["ann@example.org", "bob@example.org"]
        for email in emails {
            _ = try await server.lines.waitForLine(prefix: "demo account: \(email)", timeout: .seconds(1))
        }
        let password = try await server.lines.waitForLine(prefix: "demo password: ", timeout: .seconds(1))
        let curl = try await server.lines.waitForLine(prefix: "demo login: curl ", timeout: .seconds(1))
        #expect(curl.contains("\(server.address)/v1/sessions") && curl.contains(#""password":"\#(password)""#))

        let client = server.client
        let token = try await client.login("ann@example.org", password)
        let house = try await client.send("GET", "/v1/me/house", token: token)
        #expect(house.status == 200, "\(house.text)")
        #expect(house.json["name"] as? String == "Canal House")
        #expect(Set(house.list("members").compactMap { $0["displayName"] as? String }) == ["Ann", "Bob"])
        #expect(Set(house.list("rooms").compactMap { $0["name"] as? String }) == ["Kitchen", "Bathroom"])
        let houseId = try #require(house.json["houseId"] as? String)
        let board = try await client.send("GET", "/v1/houses/\(houseId)/scoreboard", token: token)
        #expect(board.list("members").map { $0["displayName"] as? String } == ["Ann", "Bob"])
        let history = try await client.send("GET", "/v1/houses/\(houseId)/history", token: token)
        #expect(history.list("items").count == 10)
        #expect(try await server.terminate())

        // A second --demo on the same (now non-empty) log seeds nothing and says so.
        let again = try await ServerProcess(dataDirectory: directory.path, arguments: ["--demo"])
        let notice = try await again.lines.waitForLine(prefix: "demo: ", timeout: .seconds(1))
        #expect(notice.contains("not empty") && notice.contains("seeding nothing"))
        let stillTen = try await again.client.send("GET", "/v1/houses/\(houseId)/history",
                                                   token: try await again.client.login("bob@example.org", password))
        #expect(stillTen.list("items").count == 10)
        #expect(try await again.terminate())
    }

    /// A setting of the environment the server cannot use stops it before it makes anything,
    /// naming the setting.
    @Test(arguments: [("LOGBOOK_BCRYPT_COST", "99"), ("LOGBOOK_WRITE_AHEAD", "yes"), ("LOGBOOK_INDEX_TAIL_EVENTS", "100000")])
    func aBadEnvironmentSettingIsRefusedAtStart(_ name: String, _ value: String) async throws {
        let directory = NSTemporaryDirectory() + "unused-" + UUID().uuidString
        let process = ChildProcess()
        process.executableURL = try ServerBinary.url()
        process.arguments = ["serve", "--data-dir", directory]
        process.environment = ProcessInfo.processInfo.environment.merging([name: value]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try await process.runToExit()
        #expect(process.terminationStatus != 0)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains(name))
        #expect(!FileManager.default.fileExists(atPath: directory), "refused before the data directory was made")
    }

    /// A log the server cannot reach, or a URL that names none, stops the start at once and says
    /// why, without the password; nothing is made in the data directory's log/.
    @Test(arguments: [
        ("postgres://logbook:hunter2@127.0.0.1:1/events", "Connection refused"),
        ("mysql://logbook:hunter2@127.0.0.1/events", "expected postgres://"),
    ])
    func anEventStoreItCannotUseIsRefusedAtStart(_ url: String, _ reason: String) async throws {
        let directory = TemporaryDataDirectory()
        let process = ChildProcess()
        process.executableURL = try ServerBinary.url()
        process.arguments = ["serve", "--data-dir", directory.path, "--port", "0", "--event-store", url]
        process.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_BCRYPT_COST": "4"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        let started = ContinuousClock.now
        try await process.runToExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus != 0 && said.contains(reason) && !said.contains("hunter2"), "\(said)")
        #expect(ContinuousClock.now - started < .seconds(20), "refused at once")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/log"), "no LMDB log made beside the named one")
    }
}
