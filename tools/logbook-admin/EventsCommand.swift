import ArgumentParser
import EventLog
import LogInspection
import PostgresEventLog

/// `events`: lists the events a filter selects, oldest first.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List events, filtered, as a table or as JSON lines.",
        discussion: "Filters combine: an event is listed when it meets all of them."
    )

    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var filterOptions: EventFilterOptions

    @OptionGroup var listing: ListingOptions

    func run() async throws {
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let scanner = EventScanner(store: log, filter: filterOptions.filter)
        try await listing.list { limit, emit in try await scanner.forward(limit: limit, emit) }
    }
}
