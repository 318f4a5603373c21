import ArgumentParser
import EventLog

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

    @Option(help: "Print at most this many events.")
    var limit: Int?

    @Flag(help: "Print one JSON object per line instead of a table.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let store = try dataDirectory.openStore()
        let output = EventOutput(json: json, flushEachLine: false)
        let scanner = EventScanner(store: store, filter: EventFilter(streamID: streamID))
        do {
            if backward {
                try scanner.backward(limit: limit ?? .max) { output.write($0) }
            } else {
                try scanner.forward(limit: limit ?? .max) { output.write($0) }
            }
        } catch {
            output.flushBuffered()
            throw error
        }
        output.finish()
    }
}
