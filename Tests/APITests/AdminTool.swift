import Foundation
import TestSupport

/// Runs the built `logbook-admin`, as an operator would beside a test server.
enum AdminTool {
    /// What a run printed and how it ended.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        /// Both streams, standard output first.
        var output: String { stdout + stderr }
    }

    /// Runs it with `arguments`. `unsetting` names environment variables of the test process
    /// the tool must not inherit (`LOGBOOK_DATA_DIR`, `LOGBOOK_SECRET_KEY`: they would change
    /// what it opens); `setting` adds to it. Output goes to files, so a chatty stream cannot fill
    /// a pipe and stall it.
    static func run(_ arguments: [String], unsetting: [String] = [], setting: [String: String] = [:]) async throws -> Result {
        let base = NSTemporaryDirectory() + "admin-tool-" + UUID().uuidString
        for suffix in [".out", ".err"] { _ = FileManager.default.createFile(atPath: base + suffix, contents: nil) }
        defer { for suffix in [".out", ".err"] { try? FileManager.default.removeItem(atPath: base + suffix) } }
        let process = ChildProcess()
        process.executableURL = try ServerBinary.url().deletingLastPathComponent().appendingPathComponent("logbook-admin")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for name in unsetting { environment[name] = nil }
        environment.merge(setting) { $1 }
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: base + ".out")
        process.standardError = FileHandle(forWritingAtPath: base + ".err")
        try await process.runToExit()
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? "")
    }
}
