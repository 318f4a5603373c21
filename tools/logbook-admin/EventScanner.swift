import EventLog

/// Reads the events a filter selects, page by page through the most selective index, filtering
/// the rest here. Memory stays at one page however large the log is.
struct EventScanner: Sendable {
    let store: LMDBEventStore
    let filter: EventFilter

    /// Events per read; the log also ends a page early at `readPageBytesMax`.
    var pageEvents: Int { max(1, min(store.options.limits.readPageEventsMax, 256)) }

    /// Calls `body` with each matching event, oldest first, at most `limit` times.
    func forward(limit: Int = .max, _ body: (RecordedEvent) -> Void) throws(EventLogError) {
        guard limit > 0 else { return }
        var emitted = 0
        var pageSize = pageEvents
        // Streams are paged by version, everything else by position.
        var next = try firstCandidate()
        while true {
            let page: [RecordedEvent]
            do {
                page = try read(from: next, direction: .forward, limit: pageSize)
            } catch where pageSize > 1 {
                // A damaged record fails its whole page. Reading on one event at a time shows
                // everything before the damage and then fails at it, naming where it starts.
                pageSize = 1
                continue
            }
            for event in page {
                if filter.isPastEnd(event) { return }
                guard filter.matches(event) else { continue }
                body(event)
                emitted += 1
                if emitted == limit { return }
            }
            guard let last = page.last else { return }  // a short page is not the end: pages also end at a byte cap
            if case .stream = filter.source { next = last.streamVersion + 1 } else { next = last.position + 1 }
        }
    }

    /// Calls `body` with each matching event, newest first, at most `limit` times.
    func backward(limit: Int = .max, _ body: (RecordedEvent) -> Void) throws(EventLogError) {
        guard limit > 0 else { return }
        let streamID: String? = if case let .stream(id) = filter.source { id } else { nil }
        var emitted = 0
        var pageSize = pageEvents
        var next = streamID == nil ? filter.positions.upperBound : .max
        while true {
            let page: [RecordedEvent]
            do {
                page = try read(from: next, direction: .backward, limit: pageSize)
            } catch where pageSize > 1 {
                pageSize = 1  // as in `forward`: show what precedes the damage
                continue
            }
            for event in page {
                if filter.isBeforeStart(event) { return }
                guard filter.matches(event) else { continue }
                body(event)
                emitted += 1
                if emitted == limit { return }
            }
            guard let last = page.last else { return }  // a short page is not the end: pages also end at a byte cap
            let reached = streamID == nil ? last.position : last.streamVersion
            guard reached > 0 else { return }
            next = reached - 1
        }
    }

    /// The last `count` matching events, oldest first.
    func last(_ count: Int) throws(EventLogError) -> [RecordedEvent] {
        guard count > 0 else { return [] }
        var events: [RecordedEvent] = []
        try backward(limit: count) { events.append($0) }
        return events.reversed()
    }

    /// Where a forward scan starts: version 0 for a stream, else the first position that can
    /// match. With `since`, that is found by binary search, because `recordedAt` never decreases
    /// along the log; a large log is then not read from its start.
    private func firstCandidate() throws(EventLogError) -> UInt64 {
        if case .stream = filter.source { return 0 }
        var low = filter.positions.lowerBound
        guard let since = filter.since else { return low }
        var high = try store.headPosition() + 1
        while low < high {
            let middle = low + (high - low) / 2
            guard let event = try store.event(at: middle) else { return low }
            if Timestamp(event.recordedAt) < since { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// One page from the index the filter selects; streams page by version, the rest by position.
    private func read(from next: UInt64, direction: ReadDirection, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        switch filter.source {
        case let .stream(id): try store.readStream(id, from: next, direction: direction, limit: limit)
        case let .type(type): try store.readType(type, from: next, direction: direction, limit: limit)
        case let .category(category): try store.readCategory(category, from: next, direction: direction, limit: limit)
        case .all: try store.readAll(from: next, direction: direction, limit: limit)
        }
    }
}
