import ArgumentParser
import EventLog
import LogInspection
import PostgresEventLog

/// `audit --actor U | --entity ID`: who did what, when, under which command.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Who did what, when, under which command: the events an actor caused, or that name an entity, oldest first.",
        discussion: """
            --entity takes any id that occurs in events' tags (a house, report, group, game, user…): \
            the tag itself (house:ID) or the bare id, which matches every kind of tag holding it. \
            It reads the log's tag index; --actor reads the whole log, which has no index by actor.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Option(help: ArgumentHelp("The events this user id (or 'system') caused.", valueName: "id"))
    var actor: String?

    @Option(help: ArgumentHelp("The events whose tags name this id.", valueName: "id"))
    var entity: String?

    @OptionGroup var listing: ListingOptions

    /// Events read per page of the trail; the tool reads on until the trail or --limit ends.
    static let pageEvents = 500

    func validate() throws {
        switch (actor, entity) {
        case (nil, nil): throw ValidationError("name whose trail to show: --actor ID or --entity ID")
        case (.some, .some): throw ValidationError("--actor and --entity exclude each other; pass one")
        case let (actor?, _) where actor.isEmpty: throw ValidationError("--actor must not be empty")
        case let (_, entity?) where entity.isEmpty: throw ValidationError("--entity must not be empty")
        default: break
        }
    }

    func run() async throws {
        let subject: AuditTrail<EventLogBackend>.Subject = if let actor { .actor(actor) } else { .entity(entity ?? "") }
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let trail = AuditTrail(store: log)
        let output = AuditOutput(json: listing.json)
        var remaining = listing.limit ?? .max
        var start: UInt64?
        repeat {
            let page = try await trail.page(subject, from: start, limit: min(Self.pageEvents, remaining), scannedMax: .max)
            for event in page.events { output.write(event) }
            remaining -= page.events.count
            start = page.resumeKey
        } while start != nil && remaining > 0
        output.finish()
    }
}
