import Foundation

/// Runs each scenario in a child process: `strace -f` counts its writes and syncs per file, and
/// the malloc interposer, preloaded, its allocations. Foundation's `Process` is enough for one
/// child run to its end, whose output goes to files.
struct ScenarioRunner {
    /// The interposer's library, built beside this program (SwiftPM puts products together).
    private var interposer: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("libMallocInterposerSwift.so").path
    }

    func measureAll() async throws -> [Measurement] {
        var measurements: [Measurement] = []
        for scenario in Scenario.allCases { measurements += try measure(scenario) }
        return measurements
    }

    private func measure(_ scenario: Scenario) throws -> [Measurement] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-budgets-\(scenario.rawValue)-\(UUID().uuidString)").path
        let directory = scratch + "/data"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        guard FileManager.default.fileExists(atPath: interposer) else { throw RunFailure("no \(interposer): build the logbook-budgets product") }
        guard let strace = Self.executable("strace") else { throw RunFailure("strace is not installed (apt-get install strace)") }
        let traceFile = scratch + "/trace", countsFile = scratch + "/counts.json"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = [
            "-f", "-qq", "-y", "-s", "0", "--seccomp-bpf", "-e", "trace=" + SyscallTrace.traced, "-o", traceFile,
            "-E", "LD_PRELOAD=" + interposer, "--",
            CommandLine.arguments[0], "measure", "--scenario", scenario.rawValue, "--directory", directory, "--output", countsFile,
        ]
        // A clean environment: no LOGBOOK_* setting of the caller's changes what is measured.
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LOGBOOK_") && $0.key != "LD_PRELOAD" }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw RunFailure("scenario \(scenario.rawValue) failed (status \(process.terminationStatus))") }
        let counts = try JSONDecoder().decode([String: WindowCounts].self, from: Data(contentsOf: URL(fileURLWithPath: countsFile)))
        let trace = SyscallTrace(parsing: try String(contentsOfFile: traceFile, encoding: .utf8))
        return Metrics.of(counts, trace: trace, directory: directory, writeAhead: scenario.writesAhead)
    }

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

struct RunFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `measured` against the budgets: a table, and what fails.
struct BudgetCheck {
    let table: String
    let failures: [String]

    init(file: BudgetFile, measured: [Measurement]) {
        let budgets = Dictionary(uniqueKeysWithValues: file.budgets.map { ($0.metric, $0) })
        var lines = ["metric\tmeasured\tbudget\trecorded\tunit"]
        var failures: [String] = []
        for measurement in measured {
            let value = BudgetFile.rounded(measurement.value)
            guard let budget = budgets[measurement.metric] else {
                lines.append("\(measurement.metric)\t\(value)\t—\t—\t\(measurement.unit)\tNO BUDGET")
                failures.append(measurement.metric)
                continue
            }
            let over = measurement.value > budget.budget
            lines.append("\(measurement.metric)\t\(value)\t\(budget.budget)\t\(budget.recorded)\t\(measurement.unit)\(over ? "\tOVER BUDGET" : "")")
            if over { failures.append(measurement.metric) }
        }
        for metric in Set(budgets.keys).subtracting(measured.map(\.metric)).sorted() {
            lines.append("\(metric)\tnot measured")
            failures.append(metric)
        }
        table = lines.joined(separator: "\n")
        self.failures = failures
    }
}
