import EventLog
import EventSourcing

extension ProjectionEngine {
    /// Positions read from the log at once, at most: a page (up to 500) is a few reads, each one
    /// snapshot, within any store's `readPageEventsMax` (1,000 unless configured lower).
    static var positionsPerLogRead: Int { 100 }

    /// The log's events at `positions`, in that order, for a read model that keeps where its
    /// items are instead of copies of them (ADR 0009), read a chunk at a time (one read each, not
    /// one per item: a page of 50 was 50 reads). Such a read model names only positions its
    /// events had, and the log never changes a record, so a position the log does not hold is a
    /// fault of the service, never a silently shorter page: `undecodable` in "the log".
    nonisolated func records(at positions: [UInt64]) async throws(ReadModelError) -> [RecordedEvent] {
        var records: [RecordedEvent] = []
        records.reserveCapacity(positions.count)
        var start = 0
        while start < positions.count {
            let chunk = Array(positions[start..<min(positions.count, start + Self.positionsPerLogRead)])
            start += chunk.count
            let read: [RecordedEvent]
            do { read = try await log.events(at: chunk) } catch { throw .log(error) }
            guard read.count == chunk.count else {  // the log leaves out what it does not hold
                let found = Set(read.map(\.position))
                let missing = chunk.first { !found.contains($0) } ?? chunk[0]
                throw .undecodable(table: "the log", key: String(missing), reason: "the read model lists an event there; the log has none")
            }
            records += read
        }
        return records
    }

    /// The keyring's `knownErasures` that values opened now are kept under in `LogItemCache`; nil
    /// when they are not kept: when the engine has no keyring, or one that does not count its
    /// erasures.
    nonisolated var logItemsKeptUnder: Int? { personalData?.knownErasures }

    /// `logItems` for items a read model holds copies of, made in the read at hand: the value of
    /// the event at each of `positions`, from `LogItemCache` or else `make` (given the position's
    /// index), nil where `make` finds none. The read model must hold what the event at the
    /// position says, never changed after (a news item, deleted but never edited).
    nonisolated func keptItems<Value: Sendable>(at positions: [UInt64], make: (Int) throws -> Value?) rethrows -> [Value?] {
        guard let erasures = logItemsKeptUnder else { return try positions.indices.map(make) }
        return try filling(logItemCache.values(Value.self, at: positions, erasures: erasures), at: positions, erasures: erasures, make: make)
    }

    /// `kept` (what `LogItemCache` had for `positions`) with each gap made by `make` (given its
    /// index; once per position), and what was made kept in turn under `erasures`.
    private nonisolated func filling<Value: Sendable, Failure: Error>(
        _ kept: [Value?], at positions: [UInt64], erasures: Int, make: (Int) throws(Failure) -> Value?
    ) throws(Failure) -> [Value?] {
        var values = kept
        var made: [UInt64: Value] = [:]
        for index in values.indices where values[index] == nil {
            if let again = made[positions[index]] {
                values[index] = again
            } else if let value = try make(index) {
                values[index] = value
                made[positions[index]] = value
            }
        }
        logItemCache.keep(made, erasures: erasures)
        return values
    }

    /// What `make` makes of the log's events at `positions` (as `records(at:)` reads them), in
    /// that order. Each value is kept for the next reader, and answered from there until the
    /// keyring learns of an erasure (`LogItemCache`), when `logItemsKeptUnder` says so.
    nonisolated func logItems<Value: Sendable>(
        at positions: [UInt64], make: (RecordedEvent) throws(ReadModelError) -> Value
    ) async throws(ReadModelError) -> [Value] {
        guard let erasures = logItemsKeptUnder else { return try await records(at: positions).map(make) }
        let kept = logItemCache.values(Value.self, at: positions, erasures: erasures)
        let missing = zip(positions, kept).compactMap { position, value in value == nil ? position : nil }
        let read = missing.isEmpty ? [] : try await records(at: missing)
        let readAt = Dictionary(read.map { ($0.position, $0) }, uniquingKeysWith: { first, _ in first })
        let values = try filling(kept, at: positions, erasures: erasures) { index throws(ReadModelError) in
            try readAt[positions[index]].map(make)
        }
        return values.map { value in
            guard let value else { preconditionFailure("records(at:) answers every position or throws") }
            return value
        }
    }
}
