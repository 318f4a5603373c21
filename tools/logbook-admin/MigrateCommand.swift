import ArgumentParser
import EventLog
import Foundation

/// `migrate`: brings a data directory written by an earlier build to this build's format, the
/// same migration a server performs when it opens the directory (docs/record-format.md).
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Compute the hash chain of a log written before it (what a server does when it starts on it).",
        discussion: """
            Opens the log writable, so it is refused while a server runs on the directory (the \
            server has migrated it when it started). One write transaction: an interruption leaves \
            the log as it was. Running it on a migrated log changes nothing. Prints the chain head.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    func run() throws {
        let store = try dataDirectory.openWritableStore()
        defer { store.close() }
        guard let head = try store.chainHead() else { throw AdminError.noChain }
        print("chain head \(head.description)")
    }
}
