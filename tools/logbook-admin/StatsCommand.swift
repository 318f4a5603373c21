import ArgumentParser
import EventLog
import Foundation
import Projections

/// `stats`: counts, sizes and LMDB page use of the log, and every projection's progress.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show event counts by type and category, log size, LMDB page use and readers, and each projection's state.",
        discussion: "A failed projection shows its state, the position it failed at and why; a failed rebuild its error."
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        let store = try dataDirectory.openStore()
        let report = StatsReport(try store.statistics(), projections: try await projections(of: store))
        if json {
            let encoder = JSONEncoder()
            // Sorted keys keep the output stable for diffs between two runs.
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for line in report.lines { print(line) }
        }
    }

    /// Every projection's status from the read models, opened read-only beside a running server;
    /// nil when the directory has none yet (no server has run on it).
    private func projections(of log: LMDBEventStore) async throws -> [ProjectionStatus]? {
        let path = try dataDirectory.resolvedPath()
        let readModels = (path as NSString).appendingPathComponent("readmodels/data.mdb")
        guard FileManager.default.fileExists(atPath: readModels) else { return nil }
        do {
            let engine = try ProjectionEngine(log: log, dataDirectory: path, projections: LogbookProjections.all, readOnly: true)
            return try await engine.status()
        } catch {
            throw AdminError.cannotOpenReadModels(path, error)
        }
    }
}
