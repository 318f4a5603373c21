import Foundation
import LogbookClient
import TestSupport

/// One run of `logbook-client-probe` (Tests/ClientProbe), its standard output collected as it
/// arrives; the tests kill it with SIGKILL as a phone's system kills an app.
final class ProbeRun: Sendable {
    let process = ChildProcess()
    let lines = LineCollector()

    /// Made, not started: a test may arm something that kills it first.
    init(_ arguments: [String]) throws {
        process.executableURL = try ServerBinary.url(named: "logbook-client-probe")
        process.arguments = arguments
        // Nothing of the tests' environment: the probe reads only its arguments.
        process.environment = ["PATH": "/usr/bin:/bin"]
        let lines = lines
        process.collectOutput(standardError: true) { lines.append($0) }
    }

    deinit { process.kill() }

    func start() async throws -> ProbeRun {
        try await process.run()
        return self
    }

    /// Waits for a line that starts with `line`; throws when the probe ended without it.
    func waitFor(_ line: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        let printed = { self.lines.output.split(separator: "\n").contains { $0.hasPrefix(line) } }
        while ContinuousClock.now < deadline, !printed() {
            if !process.isRunning {
                await process.outputEnded()
                if printed() { return }
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        if printed() { return }
        throw Missing(line: line, output: String(lines.output.prefix(2_000)))
    }

    struct Missing: Error {
        let line: String
        let output: String
    }

    func kill() async {
        process.kill()
        await process.exited()
    }

    /// The ids it printed as queued, in order.
    var queued: [String] { fields("queued ").filter { $0.count == 2 }.map { $0[1] } }

    /// The outcomes it printed, in order: id, status and position (or problem code).
    var outcomes: [(id: String, status: Int, detail: String)] {
        fields("outcome ").compactMap { $0.count == 4 ? ($0[1], Int($0[2]) ?? 0, $0[3]) : nil }
    }

    private func fields(_ prefix: String) -> [[String]] {
        lines.output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count).split(separator: " ").map(String.init) }
    }
}
