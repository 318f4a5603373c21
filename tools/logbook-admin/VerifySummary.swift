import EventLog
import Foundation

/// A `VerifyReport` rendered for a terminal or as JSON.
struct VerifySummary: Encodable {
    let healthy: Bool
    let eventsChecked: Int
    let lastPosition: UInt64
    let indexEntriesChecked: [String: Int]
    let chainHashesChecked: Int
    /// The recomputed chain head, `POS:HASH`; nil for a log without a chain.
    let chainHead: String?
    let headsChecked: Int
    let firstDivergingPosition: UInt64?
    let problemCount: Int
    let problems: [String]

    init(_ report: VerifyReport) {
        healthy = report.isHealthy
        eventsChecked = report.eventsChecked
        lastPosition = report.lastPosition
        indexEntriesChecked = report.indexEntriesChecked
        chainHashesChecked = report.chainHashesChecked
        chainHead = report.chainHead?.description
        headsChecked = report.headsChecked
        firstDivergingPosition = report.firstDivergingPosition
        problemCount = report.problemCount
        problems = report.problems
    }

    var lines: [String] {
        let indexes = indexEntriesChecked.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var lines = TextColumns.render([
            ["events checked", String(eventsChecked)],
            ["last position", String(lastPosition)],
            ["index entries checked", indexes.isEmpty ? "none" : indexes],
            ["chain hashes checked", String(chainHashesChecked)],
            ["chain head", chainHead ?? "none"],
            ["heads checked", String(headsChecked)],
            ["problems", String(problemCount)],
        ] + (firstDivergingPosition.map { [["first diverging", "position \($0)"]] } ?? []))
        lines += problems.map { "  " + $0 }
        if problemCount > problems.count { lines.append("  … and \(problemCount - problems.count) more not listed") }
        lines.append(healthy ? "the log is healthy" : "the log is DAMAGED")
        return lines
    }

    var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, integers and booleans cannot fail.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}
