import Foundation

extension ChildProcess {
    /// A finished run's exit status and what it printed.
    public struct Output: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        /// Both streams, standard output first.
        public var output: String { stdout + stderr }
    }

    /// Runs `executableURL` with `arguments` and `environment` (nil: the tests' own) to its end.
    /// Its standard output and error go to files, so a chatty child cannot fill a pipe and stall;
    /// with `killingAfter`, a child still running then is killed (SIGKILL), so a hung one fails
    /// its test instead of holding the suite.
    public static func output(
        of executableURL: URL, arguments: [String], environment: [String: String]?, killingAfter timeout: Duration? = nil
    ) async throws -> Output {
        let base = NSTemporaryDirectory() + "child-output-" + UUID().uuidString
        let (outPath, errPath) = (base + ".out", base + ".err")
        for path in [outPath, errPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        defer { for path in [outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        let process = ChildProcess()
        process.executableURL = executableURL
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try await process.run()
        let watchdog = timeout.map { timeout in
            Task {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { process.kill() }
            }
        }
        await process.exited()
        watchdog?.cancel()
        return Output(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}
