import EventLog

/// Which events to show: an event must meet every condition that is set.
///
/// Positions are inclusive at both ends; times are inclusive at `since` and exclusive at
/// `until`, so that consecutive windows (`--until T`, then `--since T`) never show an event twice.
struct EventFilter: Sendable {
    var positions: ClosedRange<UInt64> = 1...UInt64.max
    var streamID: String?
    var category: String?
    var type: String?
    var actor: String?
    var since: Timestamp?
    var until: Timestamp?

    func matches(_ event: RecordedEvent) -> Bool {
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
    func isPastEnd(_ event: RecordedEvent) -> Bool {
        if event.position > positions.upperBound { return true }
        guard let until else { return false }
        return Timestamp(event.recordedAt) >= until
    }

    /// True when no event before this one can match, so a backward scan may stop.
    func isBeforeStart(_ event: RecordedEvent) -> Bool {
        if event.position < positions.lowerBound { return true }
        guard let since else { return false }
        return Timestamp(event.recordedAt) < since
    }

    /// The index that yields the fewest candidates: a stream is the narrowest; a type usually
    /// belongs to one category and is narrower than it; anything else scans the whole log.
    var source: EventSource {
        if let streamID { return .stream(streamID) }
        if let type { return .type(type) }
        if let category { return .category(category) }
        return .all
    }
}

/// Where a scan reads its candidates from.
enum EventSource: Sendable, Equatable {
    case stream(String)
    case type(String)
    case category(String)
    case all
}
