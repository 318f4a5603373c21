import ArgumentParser
import EventLog
import Foundation

/// `verify`: checks every record and index; the exit status says whether the log is healthy.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check checksums, position and version continuity and index consistency.",
        discussion: "Exits 0 when the log is healthy and 1, after listing every problem, when it is damaged."
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    func run() throws {
        let store = try dataDirectory.openStore()
        let report: VerifyReport
        do {
            report = try store.verify()
        } catch .corruptRecord(let position, let reason) {
            // verify() can stop at a damaged record instead of listing it; that is still damage.
            throw AdminError.verifyStopped(.corruptRecord(position: position, reason: reason))
        }
        if json {
            print(VerifySummary(report).jsonText)
        } else {
            for line in VerifySummary(report).lines { print(line) }
        }
        if !report.isHealthy {
            fflush(nil)
            throw AdminError.damaged(problemCount: report.problemCount)
        }
    }
}
