import ArgumentParser
import EventLog
import LogInspection

/// `events`: lists the events a filter selects, oldest first.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List events, filtered, as a table or as JSON lines.",
        discussion: "Filters combine: an event is listed when it meets all of them."
    )

    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var filterOptions: EventFilterOptions

    @OptionGroup var listing: ListingOptions

    func run() throws {
        let scanner = EventScanner(store: try dataDirectory.openStore(), filter: filterOptions.filter)
        try listing.list { limit, emit in try scanner.forward(limit: limit, emit) }
    }
}
