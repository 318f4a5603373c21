import ArgumentParser
import LogInspection

/// The filter flags `events` and `tail` share.
struct EventFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only events at this position or later.", valueName: "position"))
    var from: UInt64?

    @Option(help: ArgumentHelp("Only events at this position or earlier.", valueName: "position"))
    var to: UInt64?

    @Option(name: .customLong("stream"), help: ArgumentHelp("Only events of this stream.", valueName: "id"))
    var streamID: String?

    @Option(help: "Only events of streams in this category (the stream id up to its first '-').")
    var category: String?

    @Option(help: "Only events of this type.")
    var type: String?

    @Option(help: "Only events caused by this actor (a user id or 'system').")
    var actor: String?

    @Option(help: ArgumentHelp(
        "Only events recorded at or after this time: RFC 3339 (2025-01-31T08:00:00Z, 2025-01-31T09:00:00.5+01:00) or a date (midnight UTC).",
        valueName: "time"
    ))
    var since: Timestamp?

    @Option(help: ArgumentHelp("Only events recorded before this time (exclusive), in the same form as --since.", valueName: "time"))
    var until: Timestamp?

    func validate() throws {
        if let from, let to, from > to {
            throw ValidationError("--from \(from) is after --to \(to)")
        }
        if let since, let until, since >= until {
            throw ValidationError("--since \(since.rfc3339) is not before --until \(until.rfc3339)")
        }
    }

    var filter: EventFilter {
        EventFilter(
            positions: (from ?? 1)...(to ?? .max),
            streamID: streamID, category: category, type: type, actor: actor, since: since, until: until
        )
    }
}

extension Timestamp: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(rfc3339: argument)
    }
}
