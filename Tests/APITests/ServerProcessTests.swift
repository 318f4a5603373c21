import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real `logbook` binary: starts on a free port, answers, and shuts down cleanly on SIGTERM.
@Suite("Server process")
struct ServerProcessTests {
    @Test func theBinaryServesHealthAndStopsGracefullyOnSIGTERM() async throws {
        let directory = NSTemporaryDirectory() + "server-process-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = try ServerBinary.url()
        process.arguments = ["serve", "--data-dir", directory, "--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_BCRYPT_COST": "4"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        let lines = LineCollector()
        output.fileHandleForReading.readabilityHandler = { lines.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        let address = try await lines.waitForLine(prefix: "logbook listening on ", timeout: .seconds(30))
        let (data, response) = try await URLSession.shared.data(from: URL(string: "\(address)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let health = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(health?["status"] as? String == "ok")

        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning, "stopped within 20 s of SIGTERM")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        output.fileHandleForReading.readabilityHandler = nil
    }

    @Test func aBadBcryptCostIsRefusedAtStart() throws {
        let process = Process()
        process.executableURL = try ServerBinary.url()
        process.arguments = ["serve", "--data-dir", NSTemporaryDirectory() + "unused-" + UUID().uuidString]
        process.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_BCRYPT_COST": "99"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("LOGBOOK_BCRYPT_COST"))
    }
}

/// Output lines of a child process, collected as they arrive.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }

    /// The rest of the first complete line starting with `prefix`.
    func waitForLine(prefix: String, timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = lock.withLock { text.split(separator: "\n").first { $0.hasPrefix(prefix) } }
            if let found { return String(found.dropFirst(prefix.count)) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(waitingFor: prefix, output: lock.withLock { text })
    }

    struct TimedOut: Error { let waitingFor: String; let output: String }
}

/// The built `logbook` executable, next to the test bundle (the test target depends on it).
enum ServerBinary {
    static func url() throws -> URL {
        let starts = [Bundle.main.executableURL, Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        for start in starts.compactMap({ $0 }) {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("logbook")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw CocoaError(.fileNoSuchFile)
    }
}
