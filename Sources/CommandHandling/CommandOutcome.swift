/// What a handled command produced.
public struct CommandOutcome<Event: Sendable & Equatable>: Sendable, Equatable {
    /// The events appended, in order; empty when the decider found nothing to do.
    public var events: [Event]
    /// The position of the last event appended, or, when there were none, the position the
    /// decision was made at. Read-your-writes waits for the read models to reach it.
    public var position: UInt64
    /// True when the command id was known and this is the first outcome returned again.
    public var isReplay: Bool

    /// An outcome of `events` ending at `position`.
    public init(events: [Event], position: UInt64, isReplay: Bool) {
        self.events = events
        self.position = position
        self.isReplay = isReplay
    }
}
