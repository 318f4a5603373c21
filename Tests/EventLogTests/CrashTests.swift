import Foundation
import TestSupport
import Testing
@testable import EventLog

/// Durability: a real process appends with fsync and is killed with SIGKILL mid-write, several
/// times over the same directory; every append it acknowledged must be there afterwards, and
/// the log must verify.
@Suite("Crash", .timeLimit(.minutes(3)))
struct CrashTests {
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

    /// Runs the writer until `killAfter`, kills it with SIGKILL, returns its acknowledgements.
    func runAndKill(directory: String, killAfter: Duration) async throws -> [(UInt64, UUID)] {
        let process = ChildProcess()
        process.executableURL = try BuiltProducts.executable("logbook-crash-writer")
        process.arguments = [directory, "4"]
        let pipe = Pipe()
        let output = OutputCollector()
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while !output.lines.contains("ready") && ContinuousClock.now < deadline && process.isRunning {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(output.lines.contains("ready"), "the writer started")
        try await Task.sleep(for: killAfter)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        output.append(pipe.fileHandleForReading.readDataToEndOfFile())
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        return output.lines.compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "ack", let position = UInt64(parts[1]), let id = UUID(uuidString: String(parts[2])) else { return nil }
            return (position, id)
        }
    }

    @Test func everyAcknowledgedAppendSurvivesSIGKILL() async throws {
        let directory = NSTemporaryDirectory() + "crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var acknowledged: [UInt64: UUID] = [:]
        for round in 0..<5 {
            let acks = try await runAndKill(directory: directory, killAfter: .milliseconds(150 + 60 * round))
            #expect(acks.count > 0, "round \(round) appended something before the kill")
            for (position, id) in acks {
                #expect(acknowledged[position] == nil, "position \(position) acknowledged twice")
                acknowledged[position] = id
            }
        }
        var options = EventStoreOptions()
        options.readOnly = true
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        let report = try store.verify()
        #expect(report.isHealthy, "\(report.problems)")
        for (position, id) in acknowledged {
            #expect(try store.event(at: position)?.commandID == id, "acknowledged position \(position) survived")
        }
        #expect(try store.headPosition() >= acknowledged.keys.max() ?? 0)
        // Each writer's stream is gap-free across the restarts (it resumed from the stored version).
        for writer in 0..<4 {
            let versions = try store.readStream("crash-\(writer)", limit: 1_000).map(\.streamVersion)
            #expect(versions == Array(0..<UInt64(versions.count)))
        }
    }
}
