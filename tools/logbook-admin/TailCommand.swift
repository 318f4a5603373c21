import ArgumentParser
import EventLog
import Foundation

/// `tail`: the last events, then new ones as another process appends them.
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Print the last events, then follow new ones live until interrupted (SIGINT or SIGTERM).",
        discussion: """
            New events are found by polling the log, which a read-only reader must do because the \
            writer is another process (on PostgreSQL, --event-store, it is told of them as servers are). With --to or --until, tail stops once the log passes that point.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var filterOptions: EventFilterOptions

    @Option(name: [.customShort("n"), .customLong("lines")], help: "How many past events to print before following.")
    var lines = 10

    @Flag(help: "Print one JSON object per line instead of a table.")
    var json = false

    func validate() throws {
        if lines < 0 { throw ValidationError("--lines must not be negative") }
    }

    func run() async throws {
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let follower = TailFollower(store: log, filter: filterOptions.filter, lines: lines, json: json)
        let following = Task { try await follower.run() }
        let interruption = SignalCancellation(of: following, signals: [SIGINT, SIGTERM])
        defer { interruption.stop() }
        try await following.value
    }
}
