import ArgumentParser
import EventLog
import LogInspection

/// `stream ID`: one stream's history.
struct StreamCommand: ParsableCommand {
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

    func run() throws {
        let scanner = EventScanner(store: try dataDirectory.openStore(), filter: EventFilter(streamID: streamID))
        try listing.list { limit, emit in
            if backward {
                try scanner.backward(limit: limit, emit)
            } else {
                try scanner.forward(limit: limit, emit)
            }
        }
    }
}
