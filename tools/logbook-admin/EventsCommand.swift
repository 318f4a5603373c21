import ArgumentParser
import EventLog

/// `events`: lists the events a filter selects, oldest first.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List events, filtered, as a table or as JSON lines.",
        discussion: "Filters combine: an event is listed when it meets all of them."
    )

    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var filterOptions: EventFilterOptions

    @Option(help: "List at most this many events.")
    var limit: Int?

    @Flag(help: "Print one JSON object per line instead of a table.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let store = try dataDirectory.openStore()
        let output = EventOutput(json: json, flushEachLine: false)
        do {
            try EventScanner(store: store, filter: filterOptions.filter).forward(limit: limit ?? .max) { output.write($0) }
        } catch {
            // Show what was read before the failure: it tells the operator where the damage starts.
            output.flushBuffered()
            throw error
        }
        output.finish()
    }
}
