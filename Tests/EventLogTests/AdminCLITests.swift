import EventLog
import Foundation
import LMDB
import Synchronization
import Testing

/// Runs the real `logbook-admin` binary against logs written in-process, as an operator would
/// against a server's data directory.
@Suite("logbook-admin", .timeLimit(.minutes(3)))
struct AdminCLITests {
    @Test func eventsJSONHasOneCompleteObjectPerEvent() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let run = try await AdminRun(["events", "--json", "--data-dir", log.directory])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.jsonLines()
        #expect(objects.map { $0["position"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(objects.map { $0["stream"] as? String } == ["house-1", "house-1", "house-2", "quiz-1", "house-1", "quiz-1"])
        #expect(objects.map { $0["version"] as? Int } == [0, 1, 0, 0, 2, 1])

        let first = objects[0]
        #expect(first["type"] as? String == "household.taskAdded")
        #expect(first["schemaVersion"] as? Int == 1)
        #expect(first["recordedAt"] as? String == "2025-01-01T00:00:00.000000Z")
        #expect(first["actor"] as? String == "ann")
        #expect(first["commandId"] as? String == log.firstCommandID.uuidString.lowercased())
        #expect(first["correlationId"] as? String == log.firstCommandID.uuidString.lowercased())
        #expect(first["causationId"] == nil)
        #expect(first["tags"] as? [String] == ["house:1"])
        #expect((first["data"] as? [String: Any])?["title"] as? String == "Dishes")

        // Data that is not JSON is carried as base64 instead of being mangled.
        #expect(objects[3]["data"] == nil)
        #expect(objects[3]["dataBase64"] as? String == AdminTestLog.binaryData.base64EncodedString())
        // Pretty-printed JSON data still fits on its line, with its values intact.
        let completed = try #require(objects[4]["data"] as? [String: Any])
        #expect(completed["points"] as? Int == 5 && completed["note"] as? String == "a\nb")
        #expect(objects[5]["recordedAt"] as? String == "2025-01-01T03:00:00.123456Z")
        #expect(objects[5]["causationId"] as? String == log.firstCommandID.uuidString.lowercased())
    }

    @Test func indexFiltersNarrowTheListing() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let cases: [([String], [Int])] = [
            (["--type", "household.taskAdded"], [1, 2, 3]),
            (["--stream", "house-1"], [1, 2, 5]),
            (["--category", "quiz"], [4, 6]),
            (["--actor", "bob"], [4, 5]),
            (["--category", "house", "--actor", "bob"], [5]),
            (["--stream", "house-1", "--from", "2"], [2, 5]),
            (["--type", "household.taskAdded", "--from", "2", "--limit", "1"], [2]),
            (["--category", "nobody"], []),
        ]
        try await expectListings(cases, dataDirectory: log.directory)
    }

    /// Runs `events --json` with each case's filter and checks the positions it lists.
    private func expectListings(_ cases: [([String], [Int])], dataDirectory: String) async throws {
        for (filter, expected) in cases {
            let run = try await AdminRun(["events", "--json", "--data-dir", dataDirectory] + filter)
            #expect(run.status == 0, "\(filter): \(run.stderr)")
            #expect(try run.positions() == expected, "\(filter)")
        }
    }

    @Test func positionAndTimeFiltersNarrowTheListing() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let cases: [([String], [Int])] = [
            (["--from", "2", "--to", "4"], [2, 3, 4]),
            (["--to", "1"], [1]),
            (["--from", "7"], []),
            (["--since", "2025-01-01T01:00:00Z"], [4, 5, 6]),
            (["--until", "2025-01-01T02:00:00Z"], [1, 2, 3, 4]),
            (["--since", "2025-01-01T01:00:00Z", "--until", "2025-01-01T03:00:00Z"], [4, 5]),
            (["--since", "2025-01-01T03:00:00.123456Z"], [6]),
            (["--since", "2025-01-01T04:00:00+02:00"], [5, 6]),
            (["--until", "2025-01-01"], []),
            (["--limit", "2"], [1, 2]),
        ]
        try await expectListings(cases, dataDirectory: log.directory)
    }

    @Test func eventsTableIsAlignedAndTheDataDirectoryCanComeFromTheEnvironment() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let run = try await AdminRun(["events"], environment: ["LOGBOOK_DATA_DIR": log.directory])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.lines
        #expect(lines.count == 7)
        #expect(lines.first?.split(separator: " ") == ["position", "recordedAt", "stream", "version", "type", "actor"])
        let typeColumn = lines.map { $0.range(of: "household.")?.lowerBound.utf16Offset(in: $0) }
        #expect(Set(typeColumn.compactMap { $0 }).count == 1, "the type column starts at one offset")
        #expect(lines[4].contains("quiz-1") && lines[4].contains("quiz.created") && lines[4].hasSuffix("bob"))
    }

    @Test func streamPrintsOneStreamForwardOrBackward() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let forward = try await AdminRun(["stream", "house-1", "--data-dir", log.directory])
        #expect(forward.status == 0, "\(forward.stderr)")
        #expect(forward.lines.dropFirst().map { $0.split(separator: " ").first } == ["1", "2", "5"])
        let backward = try await AdminRun(["stream", "house-1", "--backward", "--json", "--data-dir", log.directory])
        #expect(try backward.positions() == [5, 2, 1])
        let newest = try await AdminRun(["stream", "house-1", "--backward", "--limit", "1", "--json", "--data-dir", log.directory])
        #expect(try newest.positions() == [5])
        let missing = try await AdminRun(["stream", "house-9", "--data-dir", log.directory])
        #expect(missing.status == 0 && missing.lines.last == "(no events)")
    }

    @Test func statsCountsByTypeAndCategory() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let text = try await AdminRun(["stats", "--data-dir", log.directory])
        #expect(text.status == 0, "\(text.stderr)")
        let rows = text.lines.map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["events", "6"]))
        #expect(rows.contains(["streams", "3"]))
        #expect(rows.contains(["household.taskAdded", "3"]))
        #expect(rows.contains(["house", "4"]))
        #expect(rows.contains { $0.first == "events" && $0.last == "6" && $0.count == 6 }, "page use of the events database")

        let json = try await AdminRun(["stats", "--json", "--data-dir", log.directory])
        let stats = try #require(try json.jsonLines().first)
        #expect(stats["eventCount"] as? Int == 6 && stats["lastPosition"] as? Int == 6)
        #expect((stats["eventsByType"] as? [String: Int])?["quiz.created"] == 1)
        #expect((stats["eventsByCategory"] as? [String: Int]) == ["house": 4, "quiz": 2])
        #expect(((stats["databases"] as? [String: Any])?["events"] as? [String: Any])?["entries"] as? Int == 6)
        #expect((stats["pageSizeBytes"] as? Int ?? 0) > 0 && (stats["readersMax"] as? Int ?? 0) > 0)
    }

    @Test func verifyPassesAHealthyLog() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let run = try await AdminRun(["verify", "--data-dir", log.directory])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.lines.contains { $0.hasPrefix("events checked") && $0.hasSuffix(" 6") })
        #expect(run.lines.last == "the log is healthy")
    }

    @Test func verifyFailsAndNamesTheDamagedPosition() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        try log.flipDataByte(atPosition: 2)
        let run = try await AdminRun(["verify", "--data-dir", log.directory])
        #expect(run.status == 1)
        #expect(run.stdout.contains("corrupt record at position 2: checksum mismatch"), "\(run.stdout)")
        #expect(run.stderr.hasPrefix("logbook-admin: the log is damaged"))
        let json = try await AdminRun(["verify", "--json", "--data-dir", log.directory])
        let report = try #require(try json.jsonLines().first)
        #expect(json.status == 1 && report["healthy"] as? Bool == false)
        // Listing stops at the damage with the reason rather than printing a damaged event.
        let events = try await AdminRun(["events", "--json", "--data-dir", log.directory])
        #expect(events.status == 1)
        #expect(events.stderr.contains("logbook-admin: corrupt record at position 2"), "\(events.stderr)")
        #expect(try events.positions() == [1])
    }

    @Test func verifyFailsOnARecordThatIsAlsoACommandBoundary() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        // Position 4 is its command's first and last event, which verify re-reads for the
        // commands index; however verify meets the damage, the tool must report it and fail.
        try log.flipDataByte(atPosition: 4)
        let run = try await AdminRun(["verify", "--data-dir", log.directory])
        #expect(run.status == 1)
        #expect((run.stdout + run.stderr).contains("corrupt record at position 4: checksum mismatch"), "\(run.stdout)\(run.stderr)")
    }

    @Test func tailPrintsTheLastEventsThenFollowsAnotherWriter() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let tail = try await AdminTail(["tail", "--json", "-n", "2", "--data-dir", log.directory])
        defer { tail.kill() }
        #expect(await tail.waitUntil { $0 == [5, 6] }, "history: \(tail.output)")
        try await log.appendLive([("house-3", "household.taskAdded"), ("quiz-2", "quiz.created")])
        #expect(await tail.waitUntil { $0 == [5, 6, 7, 8] }, "live: \(tail.output)")
        let exit = await tail.terminate()
        #expect(exit.reason == .exit && exit.status == 0, "SIGTERM ends tail normally")
    }

    @Test func tailFiltersHistoryAndLiveEvents() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let tail = try await AdminTail(["tail", "--category", "house", "-n", "2", "--data-dir", log.directory])
        defer { tail.kill() }
        #expect(await tail.waitUntil { $0 == [3, 5] }, "history: \(tail.output)")
        try await log.appendLive([("quiz-2", "quiz.created"), ("house-3", "household.taskAdded")])
        #expect(await tail.waitUntil { $0 == [3, 5, 8] }, "live: \(tail.output)")
        #expect(await tail.terminate().status == 0)
    }

    @Test func pagingCoversLogsLongerThanOnePage() async throws {
        let log = try await AdminTestLog.makeLong()
        defer { log.remove() }
        let cases: [([String], [Int])] = [
            ([], Array(1...600)),
            (["--type", "bulk.odd"], Array(stride(from: 2, through: 600, by: 2))),
            (["--category", "bulk", "--from", "590"], Array(590...600)),
            (["--since", "2025-01-01T03:00:00Z"], Array(301...600)),
            (["--since", "2025-01-01T03:00:00Z", "--until", "2025-01-01T04:00:00Z", "--to", "350"], Array(301...350)),
            (["--stream", "bulk-0", "--until", "2025-01-01T01:00:00Z"], Array(stride(from: 1, through: 100, by: 3))),
        ]
        try await expectListings(cases, dataDirectory: log.directory)
        let backward = try await AdminRun(["stream", "bulk-0", "--backward", "--json", "--data-dir", log.directory])
        #expect(try backward.positions() == Array(stride(from: 598, through: 1, by: -3)))
        // tail -n walks the type index backward, so only the last matches are read.
        let tail = try await AdminTail(["tail", "--json", "-n", "3", "--type", "bulk.odd", "--data-dir", log.directory])
        defer { tail.kill() }
        #expect(await tail.waitUntil { $0 == [596, 598, 600] }, "history: \(tail.output)")
        #expect(await tail.terminate().status == 0)
    }

    @Test func demoSeedsAnEmptyDirectoryOnceAndTheResultVerifies() async throws {
        let directory = NSTemporaryDirectory() + "admin-demo-" + UUID().uuidString + "/data"
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let first = try await AdminRun(["demo", "--data-dir", directory])
        #expect(first.status == 0 && first.stdout.hasPrefix("Seeded 14 demo events"), "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("household.taskCompleted"))
        let again = try await AdminRun(["demo", "--data-dir", directory])
        #expect(again.status == 0 && again.stdout.contains("already holds events; nothing seeded"))
        let verify = try await AdminRun(["verify", "--data-dir", directory])
        #expect(verify.status == 0 && verify.stdout.contains("events checked         14"), "\(verify.stdout)")
    }

    @Test func replayRebuildsEveryProjectionOrOneAndRefusesUnknownNames() async throws {
        let directory = NSTemporaryDirectory() + "admin-replay-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try await AdminRun(["demo", "--data-dir", directory]).status == 0)
        let all = try await AdminRun(["replay", "--data-dir", directory])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("rebuilt household.houses") && all.stdout.contains("rebuilt household.history"))
        let row = all.lines.first { $0.hasPrefix("household.tasks") }?.split(separator: " ").map(String.init)
        #expect(row == ["household.tasks", "4", "1", "14", "0", "serving"], "version, generation, checkpoint, lag, state: \(all.stdout)")
        let one = try await AdminRun(["replay", "--projection", "household.tasks", "--data-dir", directory])
        #expect(one.status == 0 && one.stdout.hasPrefix("rebuilt household.tasks") && !one.stdout.contains("rebuilt household.houses"))
        #expect(one.lines.first { $0.hasPrefix("household.tasks") }?.split(separator: " ").map(String.init)[2] == "2")
        let unknown = try await AdminRun(["replay", "--projection", "nope", "--data-dir", directory])
        #expect(unknown.status == 2 && unknown.stderr.contains("no projection named nope"))
    }

    @Test func aMissingDataDirectoryIsAClearError() async throws {
        let unset = try await AdminRun(["events"])
        #expect(unset.status == 2)
        #expect(unset.stderr.hasPrefix("logbook-admin: no data directory"), "\(unset.stderr)")
        #expect(unset.stderr.contains("LOGBOOK_DATA_DIR"))
        let absent = try await AdminRun(["stats", "--data-dir", "/nonexistent/logbook-\(UUID().uuidString)"])
        #expect(absent.status == 2 && absent.stderr.contains("/nonexistent/logbook-"), "\(absent.stderr)")
        let empty = NSTemporaryDirectory() + "admin-empty-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let noLog = try await AdminRun(["verify", "--data-dir", empty])
        #expect(noLog.status == 2 && noLog.stderr.contains("holds no event log"), "\(noLog.stderr)")
        let badTime = try await AdminRun(["events", "--data-dir", empty, "--since", "yesterday"])
        #expect(badTime.status == 2)
    }
}
