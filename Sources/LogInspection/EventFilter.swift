import EventLog

/// Which events to show: an event must meet every condition that is set.
///
/// Positions are inclusive at both ends; times are inclusive at `since` and exclusive at
/// `until`, so that consecutive windows (`--until T`, then `--since T`) never show an event twice.
public struct EventFilter: Sendable, Equatable {
    /// Positions an event must lie in (inclusive).
    public var positions: ClosedRange<UInt64>
    /// The stream an event must belong to.
    public var streamID: String?
    /// The category (stream id up to its first `-`) an event's stream must be in.
    public var category: String?
    /// The type an event must have.
    public var type: String?
    /// Who must have caused the event: a user id or `system`.
    public var actor: String?
    /// The earliest `recordedAt` shown (inclusive).
    public var since: Timestamp?
    /// The `recordedAt` from which nothing is shown (exclusive).
    public var until: Timestamp?

    /// A filter of the conditions given; every event matches the empty one.
    public init(
        positions: ClosedRange<UInt64> = 1...UInt64.max, streamID: String? = nil, category: String? = nil, type: String? = nil,
        actor: String? = nil, since: Timestamp? = nil, until: Timestamp? = nil
    ) {
        self.positions = positions
        self.streamID = streamID
        self.category = category
        self.type = type
        self.actor = actor
        self.since = since
        self.until = until
    }

    /// Whether `event` meets every condition.
    public func matches(_ event: RecordedEvent) -> Bool {
        guard positions.contains(event.position) else { return false }
        if let streamID, event.streamID != streamID { return false }
        if let category, event.category != category { return false }
        if let type, event.type != type { return false }
        if let actor, event.actor != actor { return false }
        if since != nil || until != nil {
            let recordedAt = Timestamp(event.recordedAt)
            if let since, recordedAt < since { return false }
            if let until, recordedAt >= until { return false }
        }
        return true
    }

    /// True when no event after this one in log order can match, so a forward scan may stop:
    /// positions only grow and the log never lets `recordedAt` go backwards.
    public func isPastEnd(_ event: RecordedEvent) -> Bool {
        if event.position > positions.upperBound { return true }
        guard let until else { return false }
        return Timestamp(event.recordedAt) >= until
    }

    /// True when no event before this one can match, so a backward scan may stop.
    public func isBeforeStart(_ event: RecordedEvent) -> Bool {
        if event.position < positions.lowerBound { return true }
        guard let since else { return false }
        return Timestamp(event.recordedAt) < since
    }

    /// The index that yields the fewest candidates: a stream is the narrowest; a type usually
    /// belongs to one category and is narrower than it; anything else scans the whole log.
    public var source: EventSource {
        if let streamID { return .stream(streamID) }
        if let type { return .type(type) }
        if let category { return .category(category) }
        return .all
    }
}

/// Where a scan reads its candidates from.
public enum EventSource: Sendable, Equatable {
    /// One stream, paged by stream version.
    case stream(String)
    /// The type index, paged by position.
    case type(String)
    /// The category index, paged by position.
    case category(String)
    /// The whole log, paged by position.
    case all
}
