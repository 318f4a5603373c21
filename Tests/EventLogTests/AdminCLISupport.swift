import EventLog
import Foundation
import TestSupport
import LMDB
import Synchronization
import Testing

/// A data directory holding six known events, written and closed before the tool reads it.
///
/// Positions: 1–3 one command by ann at 00:00 (house-1 ×2, house-2); 4 quiz-1 by bob at 01:00
/// with binary data; 5 house-1 by bob at 02:00 with pretty-printed JSON; 6 quiz-1 by ann at
/// 03:00.123456, caused by the first command.
struct AdminTestLog {
    static let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    static let binaryData = Data([0xFF, 0x00, 0x01])

    let directory: String
    let firstCommandID: UUID

    /// A store in a new temporary directory, stamping events with a clock the caller sets.
    private static func openClocked() throws -> (directory: String, clock: AdminTestClock, store: LMDBEventStore) {
        let directory = NSTemporaryDirectory() + "admin-cli-tests-" + UUID().uuidString
        let clock = AdminTestClock(start)
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        options.clock = { clock.now }
        return (directory, clock, try LMDBEventStore(dataDirectory: directory, options: options))
    }

    static func make() async throws -> AdminTestLog {
        let (directory, clock, store) = try openClocked()
        defer { store.close() }
        return AdminTestLog(directory: directory, firstCommandID: try await write(to: store, clock: clock))
    }

    /// Writes the six events to `store`, whose clock is `clock` (at `start`); the first
    /// command's id.
    static func write(to store: some EventStore, clock: AdminTestClock) async throws -> UUID {
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
        return first.commandID
    }

    /// 600 events in six appends an hour apart: position p is in stream bulk-((p-1) % 3) and of
    /// type bulk.odd when p is even (the index from 0 is odd).
    static func makeLong() async throws -> AdminTestLog {
        let (directory, clock, store) = try openClocked()
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
final class AdminTestOutput: Sendable {
    private let buffer = Mutex(Data())
    func append(_ data: Data) { buffer.withLock { $0.append(data) } }
    var text: String { String(decoding: buffer.withLock { $0 }, as: UTF8.self) }
}

/// A settable clock, so `recordedAt` values (and time filters) are known in advance.
final class AdminTestClock: Sendable {
    private let date: Mutex<Date>
    init(_ date: Date) { self.date = Mutex(date) }
    var now: Date { date.withLock { $0 } }
    func set(_ date: Date) { self.date.withLock { $0 = date } }
}

/// A test precondition that did not hold, such as a missing binary or record.
struct AdminTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The built `logbook-admin`: SwiftPM puts it next to the test bundle (the test target depends
/// on it), whatever the scratch path.
enum AdminBinary {
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
struct AdminRun {
    let status: Int32
    let stdout: String
    let stderr: String

    init(_ arguments: [String], environment: [String: String] = [:]) async throws {
        let output = try await ChildProcess.output(
            of: try AdminBinary.url(), arguments: arguments, environment: AdminBinary.environment(environment), killingAfter: .seconds(20))
        status = output.status
        stdout = output.stdout
        stderr = output.stderr
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
final class AdminTail {
    private let process: ChildProcess
    private let collected = AdminTestOutput()

    init(_ arguments: [String]) async throws {
        let process = ChildProcess()
        process.executableURL = try AdminBinary.url()
        process.arguments = arguments
        process.environment = AdminBinary.environment([:])
        process.standardError = FileHandle.nullDevice
        self.process = process
        let collected = self.collected
        process.collectOutput { collected.append($0) }
        try await process.run()
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

    /// Sends SIGTERM, as a service manager would, and waits for the exit (10 s at most, then
    /// SIGKILL) without holding a thread of the cooperative pool the other tests run on.
    func terminate() async -> (reason: ChildProcess.TerminationReason, status: Int32) {
        _ = await process.terminate(killingAfter: .seconds(10))
        return (process.terminationReason, process.terminationStatus)
    }

    /// Ends the process however it is doing; for cleanup after a failed expectation.
    func kill() {
        process.kill()
    }
}
