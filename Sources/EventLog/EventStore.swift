import Foundation

/// Which way a read walks.
public enum ReadDirection: Sendable {
    /// Oldest first.
    case forward
    /// Newest first.
    case backward
}

/// The event log as its callers see it. The LMDB store implements it; a PostgreSQL store can
/// later, without its callers changing.
public protocol EventStore: Sendable {
    /// The live subscription type.
    associatedtype Subscription: AsyncSequence<RecordedEvent, EventLogError> & Sendable

    /// Appends atomically under the request's conditions; returns once the append is durable.
    func append(_ request: AppendRequest) async throws(EventLogError) -> AppendResult

    /// Appends each request as `append(_:)` would, in order, each under its own conditions, so
    /// a request that `follows` an earlier one is applied after it; returns every outcome once
    /// all are durable. One failing request does not stop the others (those that follow it
    /// fail with `predecessorMissing`).
    func append(contentsOf requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>]

    /// Events of one stream from `version` (inclusive) in `direction`, at most `limit`.
    func readStream(
        _ streamID: String, from version: UInt64, direction: ReadDirection, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent]

    /// Events of the whole log from `position` (inclusive) in `direction`, at most `limit`.
    /// Every read may return fewer than `limit` (see `readPageBytesMax`); page on from the last.
    func readAll(from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent]

    /// The events of the whole log from `position`, oldest first, until `limit` of them or the
    /// log's end: one batch for a reader that applies the log (the projection runner), whose
    /// record bytes may reach those of the pages it stands for (`readPageBytesMax` for every
    /// `readPageEventsMax` events). A store that reads one page at a time may stop early at a page
    /// cut short by its byte limit.
    func readBatch(from position: UInt64, limit: Int) async throws(EventLogError) -> [RecordedEvent]

    /// The events at `positions`, in that order, in one read of one snapshot of the log: a read
    /// model that keeps where its items are (a page of reviews, ADR 0009) reads a page at once.
    /// A position the log does not hold is left out; no positions read nothing. At most
    /// `readPageEventsMax` positions.
    func events(at positions: [UInt64]) async throws(EventLogError) -> [RecordedEvent]

    /// Events of streams in `category` from `position` (inclusive) in `direction`, at most `limit`.
    func readCategory(
        _ category: String, from position: UInt64, direction: ReadDirection, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent]

    /// Events carrying `tag` from `position` (inclusive) in `direction`, at most `limit`.
    func readTag(
        _ tag: String, from position: UInt64, direction: ReadDirection, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent]

    /// Events of `type` from `position` (inclusive) in `direction`, at most `limit`.
    func readType(
        _ type: String, from position: UInt64, direction: ReadDirection, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent]

    /// Events after `position` matching `query`, oldest first, at most `limit`, with the position
    /// the search covered: a decision made from them appends with
    /// `AppendCondition(failIfEventsMatch: query, after: result.checkedUpTo)`.
    func read(matching query: EventQuery, after position: UInt64, limit: Int) async throws(EventLogError) -> QueryResult

    /// The outcome of the append that carried `commandID` (marked as a replay), or nil when no
    /// append did: lets a command handler answer a retried command before deciding it again.
    func appendResult(ofCommand commandID: UUID) async throws(EventLogError) -> AppendResult?

    /// The last version of a stream, or nil when it has no events.
    func streamVersion(_ streamID: String) async throws(EventLogError) -> UInt64?

    /// The position of the last event (0 for an empty log).
    func headPosition() async throws(EventLogError) -> UInt64

    /// Every event from `position` (inclusive): first those already stored, then new ones as they
    /// are committed, in order, with no gap and no duplicate. Ends when the task is cancelled or
    /// the store closes.
    func subscribe(from position: UInt64) -> Subscription
}

/// A log that can list the kinds of tag it holds (`house` of `house:…`): the audit by entity
/// asks each kind for its id.
public protocol TagKindListing: EventStore {
    /// At most `kindsMax` kinds, in the tags' order.
    func tagKinds(kindsMax: Int) async throws(EventLogError) -> [String]
}

extension LMDBEventStore: TagKindListing {}

extension EventStore {
    /// One request after the other: correct, with a commit each. A store with group commit
    /// queues them together instead.
    public func append(contentsOf requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>] {
        var outcomes: [Result<AppendResult, EventLogError>] = []
        for request in requests {
            do throws(EventLogError) {
                outcomes.append(.success(try await append(request)))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }
}
