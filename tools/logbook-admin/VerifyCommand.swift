import ArgumentParser
import EventLog
import PostgresEventLog
import Foundation

/// `verify`: checks every record and index; the exit status says whether the log is healthy.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check checksums, position and version continuity, index consistency and the hash chain.",
        discussion: """
            Recomputes the hash chain from the first record and checks every stored hash. With             --head POS:HASH (from logbook-admin head, published earlier; repeatable) it proves that             the log up to POS is exactly the published one, however much it has grown since. Exits 0             when the log is healthy and 1, after listing every problem (and the first diverging             position), when it is damaged or differs from a published head.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Option(name: .customLong("head"), help: ArgumentHelp("A published chain head the log must still match.", valueName: "POS:HASH"))
    var heads: [String] = []

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    func run() async throws {
        let published = try heads.map { text throws(AdminError) in
            guard let head = ChainHead(text) else { throw .malformedHead(text) }
            return head
        }
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let report: VerifyReport
        do {
            report = try await log.verify(heads: published)
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
