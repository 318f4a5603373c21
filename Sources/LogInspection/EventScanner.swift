import EventLog

/// Reads the events a filter selects, page by page through the most selective index, filtering
/// the rest here. Memory stays at one page however large the log is.
///
/// It reads through the `EventStore` protocol, so it scans an LMDB log or a PostgreSQL one
/// alike; each read is one of the store's own (a short LMDB read transaction, or one query).
public struct EventScanner<Store: EventStore>: Sendable {
    /// The log read.
    public let store: Store
    /// What is kept of it.
    public let filter: EventFilter

    /// A scanner of `store` keeping what `filter` selects.
    public init(store: Store, filter: EventFilter) {
        self.store = store
        self.filter = filter
    }

    /// Events per read (within every store's `readPageEventsMax`); the log also ends a page
    /// early at `readPageBytesMax`.
    var pageEvents: Int { 256 }

    /// Calls `body` with each matching event, oldest first, at most `limit` times.
    public func forward(limit: Int = .max, _ body: (RecordedEvent) -> Void) async throws(EventLogError) {
        _ = try await walk(from: nil, direction: .forward, limit: limit, scannedMax: .max, body)
    }

    /// Calls `body` with each matching event, newest first, at most `limit` times.
    public func backward(limit: Int = .max, _ body: (RecordedEvent) -> Void) async throws(EventLogError) {
        _ = try await walk(from: nil, direction: .backward, limit: limit, scannedMax: .max, body)
    }

    /// The last `count` matching events, oldest first.
    public func last(_ count: Int) async throws(EventLogError) -> [RecordedEvent] {
        guard count > 0 else { return [] }
        var events: [RecordedEvent] = []
        try await backward(limit: count) { events.append($0) }
        return events.reversed()
    }

    /// Up to `limit` matching events in `direction` from `start` (a `ScanPage.resumeKey`; nil
    /// from the filter's first candidate), reading at most `scannedMax` candidates, so that a
    /// filter matching nothing in a large log still answers in bounded time: such a page is short
    /// (even empty) and says where to resume. One match more than asked is looked for, so a page
    /// that ends the matches says so and a client never fetches an empty last page.
    public func page(from start: UInt64?, direction: ReadDirection, limit: Int, scannedMax: Int) async throws(EventLogError) -> ScanPage {
        precondition(limit > 0 && scannedMax > 0, "a page holds at least one event and reads at least one")
        var events: [RecordedEvent] = []
        let resume = try await walk(from: start, direction: direction, limit: limit + 1, scannedMax: scannedMax) { events.append($0) }
        guard events.count > limit else { return ScanPage(events: events, resumeKey: resume) }
        events.removeLast()
        return ScanPage(events: events, resumeKey: key(after: events[limit - 1], direction))
    }

    /// The paging key of `event` in this scan's source: its stream version when reading one
    /// stream, else its position.
    func key(of event: RecordedEvent) -> UInt64 {
        if case .stream = filter.source { event.streamVersion } else { event.position }
    }

    /// The key to read on from after `event`; nil when nothing can follow it in `direction`.
    func key(after event: RecordedEvent, _ direction: ReadDirection) -> UInt64? {
        let key = key(of: event)
        switch direction {
        case .forward: return key == .max ? nil : key + 1
        case .backward: return key == 0 ? nil : key - 1
        }
    }

    /// The scan itself: hands matches to `body` until `limit` of them, the end of the source or
    /// the filter, or `scannedMax` candidates read; returns the key to resume from, nil at an end.
    private func walk(
        from start: UInt64?, direction: ReadDirection, limit: Int, scannedMax: Int, _ body: (RecordedEvent) -> Void
    ) async throws(EventLogError) -> UInt64? {
        guard limit > 0 else { return start }
        var emitted = 0, scanned = 0
        var pageSize = pageEvents
        var next: UInt64
        if let start {
            next = start
        } else if direction == .forward {
            next = try await firstCandidate()
        } else if case .stream = filter.source {
            next = .max
        } else {
            next = filter.positions.upperBound
        }
        while scanned < scannedMax {
            let page: [RecordedEvent]
            do {
                page = try await read(from: next, direction: direction, limit: min(pageSize, scannedMax - scanned))
            } catch where pageSize > 1 {
                // A damaged record fails its whole page. Reading on one event at a time shows
                // everything before the damage and then fails at it, naming where it starts.
                pageSize = 1
                continue
            }
            guard !page.isEmpty else { return nil }  // a short page is not the end: pages also end at a byte cap
            for event in page {
                scanned += 1
                if direction == .forward ? filter.isPastEnd(event) : filter.isBeforeStart(event) { return nil }
                guard let following = key(after: event, direction) else {
                    if filter.matches(event) { body(event) }
                    return nil
                }
                next = following
                guard filter.matches(event) else { continue }
                body(event)
                emitted += 1
                if emitted == limit { return next }
            }
        }
        return next
    }

    /// Where a forward scan starts: version 0 for a stream, else the first position that can
    /// match. With `since`, that is found by binary search, because `recordedAt` never decreases
    /// along the log; a large log is then not read from its start.
    private func firstCandidate() async throws(EventLogError) -> UInt64 {
        if case .stream = filter.source { return 0 }
        var low = filter.positions.lowerBound
        guard let since = filter.since else { return low }
        var high = try await store.headPosition() + 1
        while low < high {
            let middle = low + (high - low) / 2
            guard let event = try await store.readAll(from: middle, direction: .forward, limit: 1).first,
                  event.position == middle else { return low }
            if Timestamp(event.recordedAt) < since { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// One page from the index the filter selects; streams page by version, the rest by position.
    private func read(from next: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        switch filter.source {
        case let .stream(id): try await store.readStream(id, from: next, direction: direction, limit: limit)
        case let .type(type): try await store.readType(type, from: next, direction: direction, limit: limit)
        case let .category(category): try await store.readCategory(category, from: next, direction: direction, limit: limit)
        case .all: try await store.readAll(from: next, direction: direction, limit: limit)
        }
    }
}

/// One bounded page of a scan: the matches found, and where to read on.
public struct ScanPage: Sendable, Equatable {
    /// The matching events, in the scan's direction.
    public var events: [RecordedEvent]
    /// The key to pass as `from` for the next page (a stream version when reading one stream,
    /// else a position); nil when no further event can match.
    public var resumeKey: UInt64?

    /// A page of `events` resuming at `resumeKey`.
    public init(events: [RecordedEvent], resumeKey: UInt64?) {
        self.events = events
        self.resumeKey = resumeKey
    }
}
