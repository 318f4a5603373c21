import CommandHandling

/// What every command route's 2xx body says of its outcome (SPEC §1 "HTTP API conventions"):
/// the `position` of its last event and the `events` types appended, spelled once here for
/// every app's routes.
extension CommandOutcome {
    /// The body's `position`: the last event's, or the decision's when nothing was appended.
    var responsePosition: Int64 { Int64(position) }

    /// The body's `events`: the stored type names of the events appended, in order.
    var eventTypes: [String] { events.map(\.typeName) }

    /// The whole body of a command that names nothing it made (`CommandResult`).
    var result: Components.Schemas.CommandResult {
        .init(position: responsePosition, events: eventTypes)
    }
}
