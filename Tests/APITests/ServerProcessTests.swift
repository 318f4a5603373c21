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
        try await process.run()
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
