import Foundation

/// One figure the CI holds the code to: a count per unit of work that depends on the code and
/// the data only, never on the machine's speed.
struct Measurement {
    let metric: String
    let value: Double
    /// What the value counts, for the table (`allocations per event`).
    let unit: String
}

/// `tools/budgets/budgets.json`: each metric's budget and the value it was recorded from.
struct BudgetFile: Codable {
    struct Budget: Codable {
        var metric: String
        var unit: String
        /// The value measured when the budget was recorded.
        var recorded: Double
        /// The most `check` accepts: `recorded` plus the margin for the metric's kind.
        var budget: Double
    }

    var about: String
    var budgets: [Budget]

    static let about = """
        Machine-independent budgets per unit of work on the hot paths, checked by .ci/run \
        (`logbook-budgets check`); `logbook-budgets record` writes them anew from a measurement. \
        Counted on a release build: heap allocations through the malloc interposer, bytes and syncs \
        through strace. docs/benchmarks.md, "CI budgets".
        """

    /// How much above its recorded value a metric may go: allocations and bytes move a little
    /// with the log's B-tree shapes and the scheduling of the server's tasks; syncs do not.
    static func margin(for metric: String) -> Double {
        if metric.hasSuffix("syncsPerCommit") || metric.hasSuffix("syncsPerCommand") { return 0.02 }
        if metric.contains("allocations") { return 0.05 }
        return 0.10
    }

    init(recording measurements: [Measurement]) {
        about = Self.about
        budgets = measurements.sorted { $0.metric < $1.metric }.map { measurement in
            let budget = (measurement.value * (1 + Self.margin(for: measurement.metric)) * 100).rounded(.up) / 100
            return Budget(metric: measurement.metric, unit: measurement.unit, recorded: Self.rounded(measurement.value), budget: budget)
        }
    }

    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    static func read(_ path: String) throws -> BudgetFile {
        try JSONDecoder().decode(BudgetFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func write(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(self) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// The measurements of one scenario's windows, from its own counts and the syscall trace.
enum Metrics {
    static let pageBytes = 4_096

    /// The write-ahead mode's checkpoints (its `checkpoint` file, and the syncs of `data.mdb`, which
    /// LMDB no longer makes itself) come when the log falls idle, a matter of time rather than
    /// work: their share is left out of every figure, where it would vary from run to run.
    static func of(_ counts: [String: WindowCounts], trace: SyscallTrace, directory: String, writeAhead: Bool) -> [Measurement] {
        let log = directory + "/log/"
        let readModels = directory + "/readmodels/"
        let checkpoint = log + "checkpoint", logPages = log + "data.mdb"
        let counted: (String) -> Bool = { $0.hasPrefix(directory + "/") && $0 != checkpoint }
        let synced: (String) -> Bool = { counted($0) && !(writeAhead && $0 == logPages) }
        var measurements: [Measurement] = []
        for (window, count) in counts.sorted(by: { $0.key < $1.key }) {
            let syscalls = trace.windows[window] ?? SyscallTrace.Window()
            let units = Double(max(count.units, 1))
            func add(_ name: String, _ value: Double, _ unit: String) {
                measurements.append(Measurement(metric: "\(window).\(name)", value: value, unit: unit))
            }
            let logBytes = Double(syscalls.bytes { counted($0) && $0.hasPrefix(log) })
            let pages = { (file: String) in Double(syscalls.bytes { $0 == file }) / Double(pageBytes) }
            if window.hasPrefix("log.") {
                let commits = Double(max(count.commits, 1))
                add("allocationsPerEvent", Double(count.allocations) / units, "heap allocations per event")
                add("logBytesPerEvent", logBytes / units, "bytes written to the log's files per event")
                add("logPagesPerCommit", pages(logPages) / commits, "4 KiB of the log's data.mdb written per group commit")
                add("syncsPerCommit", Double(syscalls.syncCount(where: synced)) / commits,
                    "fsyncs, fdatasyncs and O_DSYNC writes of the log per group commit")
                add("writebackStartsPerCommit", Double(syscalls.writebackStartCount(where: counted)) / commits,
                    "sync_file_range calls per group commit")
            } else if window.hasPrefix("http.post.") {
                add("allocationsPerCommand", Double(count.allocations) / units, "heap allocations per command, its read models' apply included")
                add("logBytesPerCommand", logBytes / units, "bytes written to the log's files per command")
                add("readModelPagesPerCommand", pages(readModels + "data.mdb") / units, "4 KiB of the read models' data.mdb written per command")
                add("syncsPerCommand", Double(syscalls.syncCount(where: synced)) / units, "fsyncs, fdatasyncs and O_DSYNC writes per command")
            } else {
                add("allocationsPerRequest", Double(count.allocations) / units, "heap allocations per request")
                add("readModelBytesPerRequest", Double(syscalls.bytes { $0.hasPrefix(readModels) }) / units,
                    "bytes written to the read models per request")
            }
        }
        return measurements
    }
}
