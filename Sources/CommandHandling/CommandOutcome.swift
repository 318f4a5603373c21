import EventSourcing

/// What a handled command produced.
public struct CommandOutcome<D: Decider>: Sendable {
    /// The events appended, in order; empty when the decider found nothing to do.
    public var events: [D.Event]
    /// The position of the last event appended, or, when there were none, the position the
    /// decision was made at. Read-your-writes waits for the read models to reach it.
    public var position: UInt64
    /// True when the command id was known and this is the first outcome returned again.
    public var isReplay: Bool
    /// The boundary's state with `events` folded in, so a caller can answer from what the
    /// decision knew (a completion's new point total) instead of reading it back; for a replay,
    /// the state right after the first outcome's events, so a retry answers as the first try did.
    public var state: D.State?

    /// An outcome of `events` ending at `position`, leaving the boundary in `state`.
    public init(events: [D.Event], position: UInt64, isReplay: Bool, state: D.State?) {
        self.events = events
        self.position = position
        self.isReplay = isReplay
        self.state = state
    }
}

extension CommandOutcome: Equatable where D.State: Equatable {}
