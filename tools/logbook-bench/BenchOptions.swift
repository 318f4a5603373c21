import ArgumentParser
import Foundation

/// Options every scenario takes: where its data goes and how results are printed.
struct BenchOptions: ParsableArguments {
    @Option(help: "Parent directory for each scenario's fresh data directory (default: the system temp directory, /tmp).")
    var dir: String?

    @Flag(help: "Keep the data directories instead of removing them.")
    var keep = false

    @Flag(help: "Print one JSON document instead of tables.")
    var json = false

    /// Runs `body` with a new, empty data directory named after `scenario`, removed afterwards
    /// unless `--keep`. Each scenario gets its own so no run measures a log another one grew.
    func withDataDirectory<T>(_ scenario: String, _ body: (String) async throws -> T) async throws -> T {
        let parent = dir ?? NSTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        var template = Array((parent as NSString).appendingPathComponent("logbook-bench-\(scenario)-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw ValidationError("cannot create a directory in \(parent): errno \(errno)")
        }
        let path = String(cString: created)
        defer {
            if keep {
                Progress.say("kept \(path)")
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        return try await body(path)
    }
}

/// Prints reports as scenarios finish (text) or all at once at the end (JSON), so that `--json`
/// writes one parseable document to standard output.
struct ReportPrinter {
    let json: Bool
    private(set) var reports: [ScenarioReport] = []

    init(json: Bool) {
        self.json = json
    }

    mutating func print(_ report: ScenarioReport) {
        reports.append(report)
        if !json { Swift.print(report.text + "\n") }
    }

    func finish() throws {
        guard json else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let document = BenchDocument(
            date: ISO8601DateFormatter().string(from: Date()),
            processors: ProcessInfo.processInfo.activeProcessorCount,
            scenarios: reports
        )
        Swift.print(String(decoding: try encoder.encode(document), as: UTF8.self))
    }
}

/// The `--json` output: when and where it ran, then each scenario's report.
struct BenchDocument: Encodable {
    let date: String
    let processors: Int
    let scenarios: [ScenarioReport]
}

/// Progress lines go to standard error so they never mix with tables or JSON on standard output.
enum Progress {
    static func say(_ line: String) {
        FileHandle.standardError.write(Data(("logbook-bench: " + line + "\n").utf8))
    }
}
