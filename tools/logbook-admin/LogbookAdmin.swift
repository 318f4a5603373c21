import ArgumentParser
import EventLog
import Foundation

/// The operator's view of a Logbook data directory.
///
/// Every verb but `demo`, `migrate` and `quiz import` opens the log read-only (`blobs gc` deletes
/// image files, never touching the log), so it is safe to point at
/// the directory of a running server: LMDB lets any number of readers share an environment with
/// its one writer. Those that write refuse while a server holds the log's writer lock.
@main
struct LogbookAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-admin",
        abstract: "Inspect a Logbook event log (read-only, so safe while the server runs; only demo, migrate and quiz import write; blobs gc deletes unreferenced images; backup writes only into its new directory; import only into an empty data directory).",
        discussion: """
            The data directory comes from --data-dir or, when that is absent, $\(DataDirectoryOption.environmentVariable).
            Exit status: 0 on success, 1 when the log is damaged or a read fails, 2 for bad arguments \
            or a data directory that cannot be opened.
            """,
        subcommands: [EventsCommand.self, TailCommand.self, StreamCommand.self, AuditCommand.self, StatsCommand.self, VerifyCommand.self, HeadCommand.self, RecordsCommand.self, MigrateCommand.self, ReplayCommand.self, DemoCommand.self, OutboxCommand.self, QuizAdminCommand.self, BlobsCommand.self, BackupCommand.self, ExportCommand.self, ImportCommand.self]
    )

    /// Replaces ArgumentParser's entry point so that failures print as `logbook-admin: …` and
    /// exit with the statuses documented above instead of ArgumentParser's `Error: …` and 64.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            fail(error)
        }
    }

    private static func fail(_ error: any Error) -> Never {
        switch error {
        case let error as AdminError:
            printToStandardError("logbook-admin: \(error.description)")
            Foundation.exit(error.exitStatus)
        case let error as EventLogError:
            printToStandardError("logbook-admin: \(error.description)")
            Foundation.exit(AdminError.failureStatus)
        default:
            // Argument errors keep ArgumentParser's text, which shows the usage, but in the tool's
            // own form and status; help and explicit exit codes pass through.
            if exitCode(for: error) == .validationFailure {
                var message = fullMessage(for: error)
                if message.hasPrefix("Error: ") { message = "logbook-admin: " + message.dropFirst("Error: ".count) }
                printToStandardError(message)
                Foundation.exit(AdminError.usageStatus)
            }
            exit(withError: error)
        }
    }
}

/// Writes one line to stderr, which stays free of data so stdout can be piped.
func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
