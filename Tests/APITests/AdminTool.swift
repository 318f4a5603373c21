import Foundation
import TestSupport

/// Runs the built `logbook-admin`, as an operator would beside a test server.
enum AdminTool {
    /// What a run printed and how it ended.
    typealias Result = ChildProcess.Output

    /// Runs it with `arguments`. `unsetting` names environment variables of the test process
    /// the tool must not inherit (`LOGBOOK_DATA_DIR`, `LOGBOOK_SECRET_KEY`: they would change
    /// what it opens); `setting` adds to it.
    static func run(_ arguments: [String], unsetting: [String] = [], setting: [String: String] = [:]) async throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        for name in unsetting { environment[name] = nil }
        environment.merge(setting) { $1 }
        return try await ChildProcess.output(
            of: try ServerBinary.url().deletingLastPathComponent().appendingPathComponent("logbook-admin"),
            arguments: arguments, environment: environment)
    }
}
