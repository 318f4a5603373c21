import Foundation
import TestSupport
import Testing

/// How the crash writer makes its appends durable, for the tests that kill it.
enum DurableMode: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Each LMDB commit syncs itself.
    case syncing
    /// The write-ahead mode (ADR 0006).
    case writeAhead = "write-ahead"
    /// The write-ahead mode with the index tail (docs/decisions/0008) of 64 events, never written
    /// early, so that failures land while events wait for their index entries.
    case writeAheadWithIndexTail = "write-ahead, index tail"

    var testDescription: String { rawValue }

    var writeAhead: Bool { self != .syncing }

    /// The index tail the writer keeps; 0: none.
    var indexTailEventsMax: Int { self == .writeAheadWithIndexTail ? 64 : 0 }

    /// The crash writer's environment for this mode.
    func configure(_ environment: inout [String: String]) {
        if writeAhead { environment["LOGBOOK_CRASH_WRITER_WRITE_AHEAD"] = "1" }
        if indexTailEventsMax > 0 { environment["LOGBOOK_CRASH_WRITER_INDEX_TAIL"] = String(indexTailEventsMax) }
    }
}

/// The crash tests' child process (`Tests/CrashWriter`): appends from four writers until killed.
enum CrashWriterRun {
    /// Collects a child's stdout as it arrives, so the child never blocks on a full pipe.
    final class OutputCollector: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
        /// The complete lines so far (a line cut by the kill is not complete).
        var lines: [String] {
            lock.withLock {
                let text = String(decoding: data, as: UTF8.self)
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                lines.removeLast()
                return lines
            }
        }
    }

    /// Runs the writer on `log` (a data directory or a `postgres://` URL) with `environment`
    /// (nil: this process's) until `killAfter` past its start, kills it with SIGKILL, and returns
    /// the appends it acknowledged as (position, command id).
    static func untilKilled(log: String, environment: [String: String]? = nil, killAfter: Duration) async throws -> [(UInt64, UUID)] {
        let process = ChildProcess()
        process.executableURL = try BuiltProducts.executable("logbook-crash-writer")
        process.arguments = [log, "4"]
        process.environment = environment
        let output = OutputCollector()
        process.collectOutput { output.append($0) }
        try await process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while !output.lines.contains("ready") && ContinuousClock.now < deadline && process.isRunning {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(output.lines.contains("ready"), "the writer started")
        try await Task.sleep(for: killAfter)
        kill(process.processIdentifier, SIGKILL)
        await process.exited()
        await process.outputEnded()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        return output.lines.compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "ack", let position = UInt64(parts[1]), let id = UUID(uuidString: String(parts[2])) else { return nil }
            return (position, id)
        }
    }
}
