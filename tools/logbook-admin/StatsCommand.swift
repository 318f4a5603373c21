import ArgumentParser
import EventLog
import Foundation

/// `stats`: counts, sizes and LMDB page use of the log.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show event counts by type and category, log size, LMDB page use and readers."
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let store = try dataDirectory.openStore()
        let report = StatsReport(try store.statistics())
        if json {
            let encoder = JSONEncoder()
            // Sorted keys keep the output stable for diffs between two runs.
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for line in report.lines { print(line) }
        }
    }
}
