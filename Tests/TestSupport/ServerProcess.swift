import Foundation

/// The real `logbook serve` as a child process on a free port. Sendable so that several can be
/// started at once: `address` is set once, in `init`; the process and the line collector lock.
public final class ServerProcess: @unchecked Sendable {
    public let process = ChildProcess()
    public let lines = LineCollector()
    /// `http://host:port`, once listening.
    public private(set) var address = ""

    /// Starts `logbook serve` on `dataDirectory` with bcrypt cost 4 and waits for it to listen.
    /// `environment` adds to (or, with "", clears in) the test process's; `capturingStandardError`
    /// collects the server's log (swift-log writes to standard error) into `lines` too.
    public init(
        dataDirectory: String, arguments: [String] = [], environment: [String: String] = [:], capturingStandardError: Bool = false
    ) async throws {
        process.executableURL = try ServerBinary.url()
        process.arguments = ["serve", "--data-dir", dataDirectory, "--port", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_BCRYPT_COST": "4"]) { $1 }.merging(environment) { $1 }
        let lines = lines
        process.collectOutput(standardError: capturingStandardError) { lines.append($0) }
        try await process.run()
        do {
            address = try await lines.waitForLine(prefix: "logbook listening on ", timeout: .seconds(120))
        } catch {
            kill()
            throw error
        }
    }

    /// Sends SIGTERM and returns whether it exited with status 0 within `timeout`.
    public func terminate(timeout: Duration = .seconds(20)) async throws -> Bool {
        guard await process.terminate(killingAfter: timeout) else { return false }
        return process.terminationReason == .exit && process.terminationStatus == 0
    }

    /// SIGKILL if still running (a failed test's clean-up).
    public func kill() {
        process.kill()
    }

    deinit { kill() }
}

/// A fresh temporary data directory path (not created) and its removal.
public struct TemporaryDataDirectory: ~Copyable {
    public let path = NSTemporaryDirectory() + "server-process-" + UUID().uuidString
    public init() {}

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
