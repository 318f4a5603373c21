import EventLog
import Foundation
import LMDB
import Synchronization
import Testing

/// Runs the real `logbook-admin` binary against logs written in-process, as an operator would
/// against a server's data directory.
@Suite("logbook-admin")
struct AdminCLITests {
    @Test func eventsJSONHasOneCompleteObjectPerEvent() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let run = try AdminRun(["events", "--json", "--data-dir", log.directory])
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
        try expectListings(cases, dataDirectory: log.directory)
    }

    /// Runs `events --json` with each case's filter and checks the positions it lists.
    private func expectListings(_ cases: [([String], [Int])], dataDirectory: String) throws {
        for (filter, expected) in cases {
            let run = try AdminRun(["events", "--json", "--data-dir", dataDirectory] + filter)
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
        try expectListings(cases, dataDirectory: log.directory)
    }

    @Test func eventsTableIsAlignedAndTheDataDirectoryCanComeFromTheEnvironment() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let run = try AdminRun(["events"], environment: ["LOGBOOK_DATA_DIR": log.directory])
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
        let forward = try AdminRun(["stream", "house-1", "--data-dir", log.directory])
        #expect(forward.status == 0, "\(forward.stderr)")
        #expect(forward.lines.dropFirst().map { $0.split(separator: " ").first } == ["1", "2", "5"])
        let backward = try AdminRun(["stream", "house-1", "--backward", "--json", "--data-dir", log.directory])
        #expect(try backward.positions() == [5, 2, 1])
        let newest = try AdminRun(["stream", "house-1", "--backward", "--limit", "1", "--json", "--data-dir", log.directory])
        #expect(try newest.positions() == [5])
        let missing = try AdminRun(["stream", "house-9", "--data-dir", log.directory])
        #expect(missing.status == 0 && missing.lines.last == "(no events)")
    }

    @Test func statsCountsByTypeAndCategory() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let text = try AdminRun(["stats", "--data-dir", log.directory])
        #expect(text.status == 0, "\(text.stderr)")
        let rows = text.lines.map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["events", "6"]))
        #expect(rows.contains(["streams", "3"]))
        #expect(rows.contains(["household.taskAdded", "3"]))
        #expect(rows.contains(["house", "4"]))
        #expect(rows.contains { $0.first == "events" && $0.last == "6" && $0.count == 6 }, "page use of the events database")

        let json = try AdminRun(["stats", "--json", "--data-dir", log.directory])
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
        let run = try AdminRun(["verify", "--data-dir", log.directory])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.lines.contains { $0.hasPrefix("events checked") && $0.hasSuffix(" 6") })
        #expect(run.lines.last == "the log is healthy")
    }

    @Test func verifyFailsAndNamesTheDamagedPosition() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        try log.flipDataByte(atPosition: 2)
        let run = try AdminRun(["verify", "--data-dir", log.directory])
        #expect(run.status == 1)
        #expect(run.stdout.contains("corrupt record at position 2: checksum mismatch"), "\(run.stdout)")
        #expect(run.stderr.hasPrefix("logbook-admin: the log is damaged"))
        let json = try AdminRun(["verify", "--json", "--data-dir", log.directory])
        let report = try #require(try json.jsonLines().first)
        #expect(json.status == 1 && report["healthy"] as? Bool == false)
        // Listing stops at the damage with the reason rather than printing a damaged event.
        let events = try AdminRun(["events", "--json", "--data-dir", log.directory])
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
        let run = try AdminRun(["verify", "--data-dir", log.directory])
        #expect(run.status == 1)
        #expect((run.stdout + run.stderr).contains("corrupt record at position 4: checksum mismatch"), "\(run.stdout)\(run.stderr)")
    }

    @Test func tailPrintsTheLastEventsThenFollowsAnotherWriter() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let tail = try AdminTail(["tail", "--json", "-n", "2", "--data-dir", log.directory])
        defer { tail.kill() }
        #expect(await tail.waitUntil { $0 == [5, 6] }, "history: \(tail.output)")
        try await log.appendLive([("house-3", "household.taskAdded"), ("quiz-2", "quiz.created")])
        #expect(await tail.waitUntil { $0 == [5, 6, 7, 8] }, "live: \(tail.output)")
        let exit = tail.terminate()
        #expect(exit.reason == .exit && exit.status == 0, "SIGTERM ends tail normally")
    }

    @Test func tailFiltersHistoryAndLiveEvents() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let tail = try AdminTail(["tail", "--category", "house", "-n", "2", "--data-dir", log.directory])
        defer { tail.kill() }
        #expect(await tail.waitUntil { $0 == [3, 5] }, "history: \(tail.output)")
        try await log.appendLive([("quiz-2", "quiz.created"), ("house-3", "household.taskAdded")])
        #expect(await tail.waitUntil { $0 == [3, 5, 8] }, "live: \(tail.output)")
        #expect(tail.terminate().status == 0)
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
        try expectListings(cases, dataDirectory: log.directory)
        let backward = try AdminRun(["stream", "bulk-0", "--backward", "--json", "--data-dir", log.directory])
        #expect(try backward.positions() == Array(stride(from: 598, through: 1, by: -3)))
        // tail -n walks the type index backward, so only the last matches are read.
        let tail = try AdminTail(["tail", "--json", "-n", "3", "--type", "bulk.odd", "--data-dir", log.directory])
        defer { tail.kill() }
        #expect(await tail.waitUntil { $0 == [596, 598, 600] }, "history: \(tail.output)")
        #expect(tail.terminate().status == 0)
    }

    @Test func demoSeedsAnEmptyDirectoryOnceAndTheResultVerifies() throws {
        let directory = NSTemporaryDirectory() + "admin-demo-" + UUID().uuidString + "/data"
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let first = try AdminRun(["demo", "--data-dir", directory])
        #expect(first.status == 0 && first.stdout.hasPrefix("Seeded 14 demo events"), "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("household.taskCompleted"))
        let again = try AdminRun(["demo", "--data-dir", directory])
        #expect(again.status == 0 && again.stdout.contains("already holds events; nothing seeded"))
        let verify = try AdminRun(["verify", "--data-dir", directory])
        #expect(verify.status == 0 && verify.stdout.contains("events checked         14"), "\(verify.stdout)")
    }

    @Test func replayRebuildsEveryProjectionOrOneAndRefusesUnknownNames() throws {
        let directory = NSTemporaryDirectory() + "admin-replay-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try AdminRun(["demo", "--data-dir", directory]).status == 0)
        let all = try AdminRun(["replay", "--data-dir", directory])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("rebuilt household.houses") && all.stdout.contains("rebuilt household.history"))
        let row = all.lines.first { $0.hasPrefix("household.tasks") }?.split(separator: " ").map(String.init)
        #expect(row == ["household.tasks", "1", "1", "14", "0"], "version, generation, checkpoint, lag: \(all.stdout)")
        let one = try AdminRun(["replay", "--projection", "household.tasks", "--data-dir", directory])
        #expect(one.status == 0 && one.stdout.hasPrefix("rebuilt household.tasks") && !one.stdout.contains("rebuilt household.houses"))
        #expect(one.lines.first { $0.hasPrefix("household.tasks") }?.split(separator: " ").map(String.init)[2] == "2")
        let unknown = try AdminRun(["replay", "--projection", "nope", "--data-dir", directory])
        #expect(unknown.status == 2 && unknown.stderr.contains("no projection named nope"))
    }

    @Test func aMissingDataDirectoryIsAClearError() throws {
        let unset = try AdminRun(["events"])
        #expect(unset.status == 2)
        #expect(unset.stderr.hasPrefix("logbook-admin: no data directory"), "\(unset.stderr)")
        #expect(unset.stderr.contains("LOGBOOK_DATA_DIR"))
        let absent = try AdminRun(["stats", "--data-dir", "/nonexistent/logbook-\(UUID().uuidString)"])
        #expect(absent.status == 2 && absent.stderr.contains("/nonexistent/logbook-"), "\(absent.stderr)")
        let empty = NSTemporaryDirectory() + "admin-empty-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let noLog = try AdminRun(["verify", "--data-dir", empty])
        #expect(noLog.status == 2 && noLog.stderr.contains("holds no event log"), "\(noLog.stderr)")
        let badTime = try AdminRun(["events", "--data-dir", empty, "--since", "yesterday"])
        #expect(badTime.status == 2)
    }
}

/// A data directory holding six known events, written and closed before the tool reads it.
///
/// Positions: 1–3 one command by ann at 00:00 (house-1 ×2, house-2); 4 quiz-1 by bob at 01:00
/// with binary data; 5 house-1 by bob at 02:00 with pretty-printed JSON; 6 quiz-1 by ann at
/// 03:00.123456, caused by the first command.
private struct AdminTestLog {
    static let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    static let binaryData = Data([0xFF, 0x00, 0x01])

    let directory: String
    let firstCommandID: UUID

    static func make() async throws -> AdminTestLog {
        let directory = NSTemporaryDirectory() + "admin-cli-tests-" + UUID().uuidString
        let clock = AdminTestClock(start)
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        options.clock = { clock.now }
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        defer { store.close() }
        let first = AppendMetadata(actor: "ann")
        let json = { (text: String) in Data(text.utf8) }
        _ = try await store.append(AppendRequest(events: [
            ProposedEvent(streamID: "house-1", type: "household.taskAdded", tags: ["house:1"], data: json(#"{"title":"Dishes"}"#)),
            ProposedEvent(streamID: "house-1", type: "household.taskAdded", data: json(#"{"title":"Laundry"}"#)),
            ProposedEvent(streamID: "house-2", type: "household.taskAdded", data: json(#"{"title":"Windows"}"#)),
        ], metadata: first))
        clock.set(start.addingTimeInterval(3600))
        _ = try await store.append(AppendRequest(events: [
            ProposedEvent(streamID: "quiz-1", type: "quiz.created", tags: ["quiz:1"], data: binaryData),
        ], metadata: AppendMetadata(actor: "bob")))
        clock.set(start.addingTimeInterval(7200))
        _ = try await store.append(AppendRequest(events: [
            ProposedEvent(streamID: "house-1", type: "household.taskCompleted", data: json("{\n  \"points\": 5,\n  \"note\": \"a\\nb\"\n}")),
        ], metadata: AppendMetadata(actor: "bob")))
        clock.set(start.addingTimeInterval(10800.123456))
        _ = try await store.append(AppendRequest(events: [
            ProposedEvent(streamID: "quiz-1", type: "quiz.answered", data: json(#"{"answer":42}"#)),
        ], metadata: AppendMetadata(causationID: first.commandID, actor: "ann")))
        return AdminTestLog(directory: directory, firstCommandID: first.commandID)
    }

    /// 600 events in six appends an hour apart: position p is in stream bulk-((p-1) % 3) and of
    /// type bulk.odd when p is even (the index from 0 is odd).
    static func makeLong() async throws -> AdminTestLog {
        let directory = NSTemporaryDirectory() + "admin-cli-tests-" + UUID().uuidString
        let clock = AdminTestClock(start)
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        options.clock = { clock.now }
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        defer { store.close() }
        let first = AppendMetadata(actor: "bulk")
        for hour in 0..<6 {
            clock.set(start.addingTimeInterval(Double(hour) * 3600))
            let events = (hour * 100..<(hour + 1) * 100).map { index in
                ProposedEvent(streamID: "bulk-\(index % 3)", type: index % 2 == 1 ? "bulk.odd" : "bulk.even", data: Data("{}".utf8))
            }
            _ = try await store.append(AppendRequest(events: events, metadata: hour == 0 ? first : AppendMetadata(actor: "bulk")))
        }
        return AdminTestLog(directory: directory, firstCommandID: first.commandID)
    }

    /// Appends as a server would while the tool runs: from this process, with a writable store.
    func appendLive(_ events: [(streamID: String, type: String)]) async throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        defer { store.close() }
        for event in events {
            _ = try await store.append(AppendRequest(
                events: [ProposedEvent(streamID: event.streamID, type: event.type, data: Data("{}".utf8))],
                metadata: AppendMetadata(actor: "carol")
            ))
        }
    }

    /// Damages one record the way a bad disk would: one data byte flipped, checksum left as it was.
    func flipDataByte(atPosition position: UInt64) throws {
        let environment = try Environment(path: directory + "/log")
        let events = try environment.openDatabase("events")
        let key = withUnsafeBytes(of: position.bigEndian) { Array($0) }
        try environment.write { txn in
            guard let stored = try txn.get(events, key) else { throw AdminTestFailure("no record at \(position)") }
            var bytes = Array(stored)
            bytes[bytes.count - 5] ^= 0x01  // the last data byte, just before the 4-byte checksum
            try txn.put(events, key, bytes)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Output of a child process, appended from the pipe's reading thread and read by the test.
private final class AdminTestOutput: Sendable {
    private let buffer = Mutex(Data())
    func append(_ data: Data) { buffer.withLock { $0.append(data) } }
    var text: String { String(decoding: buffer.withLock { $0 }, as: UTF8.self) }
}

/// A settable clock, so `recordedAt` values (and time filters) are known in advance.
private final class AdminTestClock: Sendable {
    private let date: Mutex<Date>
    init(_ date: Date) { self.date = Mutex(date) }
    var now: Date { date.withLock { $0 } }
    func set(_ date: Date) { self.date.withLock { $0 = date } }
}

/// A test precondition that did not hold, such as a missing binary or record.
private struct AdminTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The built `logbook-admin`: SwiftPM puts it next to the test bundle (the test target depends
/// on it), whatever the scratch path.
private enum AdminBinary {
    static func url() throws -> URL {
        try BuiltProducts.executable("logbook-admin")
    }

    /// The test's environment without `LOGBOOK_DATA_DIR`, so only what a test passes counts.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LOGBOOK_DATA_DIR"] = nil
        return environment.merging(extra) { $1 }
    }
}

/// One finished run of the tool. Output goes to files, so a chatty run cannot fill a pipe and
/// block; a watchdog kills a run that hangs.
private struct AdminRun {
    let status: Int32
    let stdout: String
    let stderr: String

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let base = NSTemporaryDirectory() + "admin-run-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        let process = Process()
        process.executableURL = try AdminBinary.url()
        process.arguments = arguments
        process.environment = AdminBinary.environment(environment)
        process.standardOutput = FileHandle(forWritingAtPath: base + ".out")
        process.standardError = FileHandle(forWritingAtPath: base + ".err")
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        status = process.terminationStatus
        stdout = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        stderr = (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
    }

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    func jsonLines() throws -> [[String: Any]] {
        try lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw AdminTestFailure("not a JSON object: \(line)")
            }
            return object
        }
    }

    func positions() throws -> [Int] {
        try jsonLines().map { ($0["position"] as? Int) ?? -1 }
    }
}

/// A running `tail` whose stdout is collected as it arrives.
private final class AdminTail {
    private let process: Process
    private let collected = AdminTestOutput()

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = try AdminBinary.url()
        process.arguments = arguments
        process.environment = AdminBinary.environment([:])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        self.process = process
        let collected = self.collected
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            collected.append(data)
        }
        try process.run()
    }

    var output: String { collected.text }

    /// The positions printed so far, from JSON lines or table rows (whose first cell is the position).
    var positions: [Int] {
        output.split(separator: "\n").compactMap { line in
            if line.hasPrefix("{") {
                return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["position"] as? Int
            }
            return line.split(separator: " ").first.flatMap { Int($0) }
        }
    }

    /// Polls until the printed positions satisfy `condition`, for at most 10 seconds.
    func waitUntil(_ condition: ([Int]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition(positions) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(positions)
    }

    /// Sends SIGTERM, as a service manager would, and waits (bounded) for the exit.
    func terminate() -> (reason: Process.TerminationReason, status: Int32) {
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill() }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    /// Ends the process however it is doing; for cleanup after a failed expectation.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}
