import ArgumentParser
import EventLog
import LogInspection
import PostgresEventLog

/// `stream ID`: one stream's history.
struct StreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Print one stream's history, oldest first unless --backward."
    )

    @Argument(help: ArgumentHelp("The stream id, such as house-0193….", valueName: "id"))
    var streamID: String

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Flag(help: "Newest first.")
    var backward = false

    @OptionGroup var listing: ListingOptions

    func run() async throws {
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let scanner = EventScanner(store: log, filter: EventFilter(streamID: streamID))
        try await listing.list { limit, emit in
            if backward {
                try await scanner.backward(limit: limit, emit)
            } else {
                try await scanner.forward(limit: limit, emit)
            }
        }
    }
}
