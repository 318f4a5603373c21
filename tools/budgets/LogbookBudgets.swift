import ArgumentParser
import Foundation

/// The CI's machine-independent budgets (issue 50): counts per unit of work on the hot paths,
/// each checked against `tools/budgets/budgets.json`.
@main
struct LogbookBudgets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-budgets",
        abstract: "Counts allocations, bytes written, syncs and pages per unit of work, against the recorded budgets.",
        subcommands: [Check.self, Record.self, Measure.self],
        defaultSubcommand: Check.self
    )
}

/// The scenarios, each run in a process of its own under strace with the interposer preloaded.
enum Scenario: String, CaseIterable, ExpressibleByArgument {
    case logAppendSyncing = "log-append-syncing"
    case logAppendWriteAhead = "log-append-write-ahead"
    case householdHTTP = "household-http"

    /// Whether the scenario's log is in the write-ahead mode (the server's, over HTTP).
    var writesAhead: Bool { self != .logAppendSyncing }

    func run(in directory: String) async throws -> [String: WindowCounts] {
        switch self {
        case .logAppendSyncing: try await LogAppendScenario(writeAhead: false).run(in: directory)
        case .logAppendWriteAhead: try await LogAppendScenario(writeAhead: true).run(in: directory)
        case .householdHTTP: try await HouseholdHTTPScenario().run(in: directory)
        }
    }
}

struct BudgetOptions: ParsableArguments {
    @Option(help: "The budgets file.")
    var budgets = "tools/budgets/budgets.json"
}

extension LogbookBudgets {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Measures every scenario; fails when a metric exceeds its budget.")
        @OptionGroup var options: BudgetOptions

        func run() async throws {
            let file = try BudgetFile.read(options.budgets)
            let measured = try await ScenarioRunner().measureAll()
            let verdict = BudgetCheck(file: file, measured: measured)
            print(verdict.table)
            guard verdict.failures.isEmpty else {
                print("budgets: \(verdict.failures.count) over budget or unaccounted for: \(verdict.failures.joined(separator: ", "))")
                print("A change that needs more must say why, and record the new figures: logbook-budgets record (docs/benchmarks.md, \"CI budgets\").")
                throw ExitCode.failure
            }
            print("budgets: all \(measured.count) within budget")
        }
    }

    struct Record: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Measures every scenario and writes the budgets file from the figures.")
        @OptionGroup var options: BudgetOptions

        func run() async throws {
            let file = BudgetFile(recording: try await ScenarioRunner().measureAll())
            try file.write(options.budgets)
            for budget in file.budgets { print("\(budget.metric)\t\(budget.recorded)\t→ \(budget.budget)") }
        }
    }

    /// One scenario, in this process: what `check` runs under strace.
    struct Measure: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Runs one scenario here (under the parent's strace) and writes its counts.")
        @Option var scenario: Scenario
        @Option(help: "An empty directory for the scenario's data.")
        var directory: String
        @Option(help: "Where the counts go, as JSON.")
        var output: String

        func run() async throws {
            guard MeasuredWindow.interposerIsLoaded() else {
                throw ValidationError("the malloc interposer is not preloaded: run `logbook-budgets check`, which preloads it")
            }
            let counts = try await scenario.run(in: directory)
            try JSONEncoder().encode(counts).write(to: URL(fileURLWithPath: output))
        }
    }
}
