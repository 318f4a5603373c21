import EventLog

/// Who did what, when, under which command: the events one actor caused, or the events that
/// name one entity in their tags, oldest first, a page at a time.
public struct AuditTrail<Store: TagKindListing>: Sendable {
    /// What the trail follows.
    public enum Subject: Sendable, Equatable {
        /// Every event this user id (or `system`) caused.
        case actor(String)
        /// Every event carrying a tag that names this id: the id itself, or `<kind>:<id>` for
        /// any kind of tag in the log (`house:<id>`, `user:<id>`, `report:<id>`…).
        case entity(String)
    }

    /// The log read.
    public let store: Store

    /// A trail through `store`.
    public init(store: Store) {
        self.store = store
    }

    /// Up to `limit` events of `subject` from position `start` (a previous page's `resumeKey`;
    /// nil from the first). The log has no index by actor, so an actor's trail reads the log and
    /// stops after `scannedMax` events, short of `limit` if need be, saying where to resume; an
    /// entity's trail reads only its tags' index entries, so it needs no such bound.
    public func page(_ subject: Subject, from start: UInt64?, limit: Int, scannedMax: Int) async throws(EventLogError) -> ScanPage {
        switch subject {
        case let .actor(actor):
            try await EventScanner(store: store, filter: EventFilter(actor: actor)).page(
                from: start, direction: .forward, limit: limit, scannedMax: scannedMax)
        case let .entity(id):
            try await entityPage(id, from: start ?? 1, limit: limit)
        }
    }

    /// The tags that name `id`: `id` itself and `<kind>:<id>` for every kind in the log.
    public func tags(naming id: String) async throws(EventLogError) -> [String] {
        [id] + (try await store.tagKinds(kindsMax: Self.tagKindsMax)).map { "\($0):\(id)" }.filter { $0 != id }
    }

    /// Each tag's first `limit + 1` events from `start`, merged by position: the first `limit`
    /// of the union lie among them, and one more tells whether another page follows.
    /// Kinds of tag looked for: more than any log of ours has, few enough to bound the probes.
    static var tagKindsMax: Int { 1_000 }

    private func entityPage(_ id: String, from start: UInt64, limit: Int) async throws(EventLogError) -> ScanPage {
        precondition(limit > 0, "a page holds at least one event")
        var merged: [UInt64: RecordedEvent] = [:]
        for tag in try await tags(naming: id) {
            var next = start, found = 0
            while found <= limit {
                // A read may end early at its byte cap; only an empty one ends the tag.
                let events = try await store.readTag(tag, from: next, direction: .forward, limit: limit + 1 - found)
                guard let last = events.last else { break }
                // The index is read by prefix (`tag NUL`): a tag holding a NUL itself would also
                // find another tag's entries, so each event must carry the tag.
                for event in events where event.tags.contains(tag) { merged[event.position] = event }
                found += events.count
                next = last.position + 1
            }
        }
        let events = merged.values.sorted { $0.position < $1.position }
        guard events.count > limit else { return ScanPage(events: events, resumeKey: nil) }
        let page = Array(events.prefix(limit))
        return ScanPage(events: page, resumeKey: page[limit - 1].position + 1)
    }
}
