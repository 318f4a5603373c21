import EventLog
import Foundation
import LMDB

/// The log a server was started on: the embedded LMDB file or a PostgreSQL shared with other
/// servers (`--event-store`). Callers that only append and read use it as any `EventStore`;
/// what one backend alone can do (LMDB's file statistics) is optional here.
public enum EventLogBackend: TagKindListing, Sendable {
    case lmdb(LMDBEventStore)
    case postgres(PostgresEventStore)

    /// Opens the log `eventStore` names (a `postgres://` URL), or else the LMDB log in `dataDirectory`.
    public static func open(
        eventStore: String?, dataDirectory: String, options: EventStoreOptions
    ) async throws(EventLogError) -> EventLogBackend {
        guard let eventStore else { return .lmdb(try LMDBEventStore(dataDirectory: dataDirectory, options: options)) }
        return .postgres(try await PostgresEventStore.connect(to: PostgresLocation(url: eventStore), options: options))
    }

    /// What operators see of where the log is (a data directory, or the URL without its password).
    public var location: String {
        switch self {
        case let .lmdb(store): store.path
        case let .postgres(store): store.location.description
        }
    }

    /// Runs `body` while no other server on the same log runs its own: what one server must do
    /// by itself (the first start's seeding of an empty log). An LMDB log has one server.
    public func alone<T>(_ body: () async throws -> T) async throws -> T {
        switch self {
        case .lmdb: try await body()
        case let .postgres(store): try await store.alone(body)
        }
    }

    /// The whole log in one snapshot, for `logbook-admin export` (see `LMDBEventStore.export`).
    public func export(
        head: (ChainHead) throws -> Void,
        event: (RecordedEvent, UnsafeRawBufferPointer) throws -> Void,
        command: (ExportedCommand) throws -> Void
    ) async throws {
        switch self {
        case let .lmdb(store): try store.export(head: head, event: event, command: command)
        case let .postgres(store): try await store.export(head: head, event: event, command: command)
        }
    }

    /// Stops taking appends once those queued are written, and ends subscriptions.
    public func close() async {
        switch self {
        case let .lmdb(store): store.close()
        case let .postgres(store): await store.close()
        }
    }

    /// Stops taking appends and ends subscriptions now: LMDB's `close`; on PostgreSQL, a batch in
    /// flight fails (unacknowledged, so nothing acknowledged is lost) instead of being awaited.
    public func closeNow() {
        switch self {
        case let .lmdb(store): store.close()
        case let .postgres(store): store.closeNow()
        }
    }

    public func append(_ request: AppendRequest) async throws(EventLogError) -> AppendResult {
        switch self {
        case let .lmdb(store): try await store.append(request)
        case let .postgres(store): try await store.append(request)
        }
    }

    public func append(contentsOf requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>] {
        switch self {
        case let .lmdb(store): await store.append(contentsOf: requests)
        case let .postgres(store): await store.append(contentsOf: requests)
        }
    }

    public func readStream(
        _ streamID: String, from version: UInt64, direction: ReadDirection, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent] {
        switch self {
        case let .lmdb(store): try store.readStream(streamID, from: version, direction: direction, limit: limit)
        case let .postgres(store): try await store.readStream(streamID, from: version, direction: direction, limit: limit)
        }
    }

    public func readAll(from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        switch self {
        case let .lmdb(store): try store.readAll(from: position, direction: direction, limit: limit)
        case let .postgres(store): try await store.readAll(from: position, direction: direction, limit: limit)
        }
    }

    public func readBatch(from position: UInt64, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        switch self {
        case let .lmdb(store): try store.readBatch(from: position, limit: limit)
        case let .postgres(store): try await store.readBatch(from: position, limit: limit)
        }
    }

    public func events(at positions: [UInt64]) async throws(EventLogError) -> [RecordedEvent] {
        switch self {
        case let .lmdb(store): try store.events(at: positions)
        case let .postgres(store): try await store.events(at: positions)
        }
    }

    public func readCategory(
        _ category: String, from position: UInt64, direction: ReadDirection, limit: Int
    ) async throws(EventLogError) -> [RecordedEvent] {
        switch self {
        case let .lmdb(store): try store.readCategory(category, from: position, direction: direction, limit: limit)
        case let .postgres(store): try await store.readCategory(category, from: position, direction: direction, limit: limit)
        }
    }

    public func readTag(_ tag: String, from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        switch self {
        case let .lmdb(store): try store.readTag(tag, from: position, direction: direction, limit: limit)
        case let .postgres(store): try await store.readTag(tag, from: position, direction: direction, limit: limit)
        }
    }

    public func readType(_ type: String, from position: UInt64, direction: ReadDirection, limit: Int) async throws(EventLogError) -> [RecordedEvent] {
        switch self {
        case let .lmdb(store): try store.readType(type, from: position, direction: direction, limit: limit)
        case let .postgres(store): try await store.readType(type, from: position, direction: direction, limit: limit)
        }
    }

    public func read(matching query: EventQuery, after position: UInt64, limit: Int) async throws(EventLogError) -> QueryResult {
        switch self {
        case let .lmdb(store): try store.read(matching: query, after: position, limit: limit)
        case let .postgres(store): try await store.read(matching: query, after: position, limit: limit)
        }
    }

    public func appendResult(ofCommand commandID: UUID) async throws(EventLogError) -> AppendResult? {
        switch self {
        case let .lmdb(store): try store.appendResult(ofCommand: commandID)
        case let .postgres(store): try await store.appendResult(ofCommand: commandID)
        }
    }

    public func streamVersion(_ streamID: String) async throws(EventLogError) -> UInt64? {
        switch self {
        case let .lmdb(store): try store.streamVersion(streamID)
        case let .postgres(store): try await store.streamVersion(streamID)
        }
    }

    public func headPosition() async throws(EventLogError) -> UInt64 {
        switch self {
        case let .lmdb(store): try store.headPosition()
        case let .postgres(store): try await store.headPosition()
        }
    }

    /// The event at `position`, or nil past the head.
    public func event(at position: UInt64) async throws(EventLogError) -> RecordedEvent? {
        switch self {
        case let .lmdb(store): try store.event(at: position)
        case let .postgres(store): try await store.event(at: position)
        }
    }

    /// The chain's head: the last position and its hash (position 0 and the genesis hash for an
    /// empty log; nil only for an LMDB log written before the chain, opened read-only).
    public func chainHead() async throws(EventLogError) -> ChainHead? {
        switch self {
        case let .lmdb(store): return try store.chainHead()
        case let .postgres(store): return try await store.chainHead()
        }
    }

    /// Checks the whole log, and that it still matches each published head (see each backend's
    /// `verify`).
    public func verify(heads: [ChainHead] = []) async throws(EventLogError) -> VerifyReport {
        switch self {
        case let .lmdb(store): try store.verify(heads: heads)
        case let .postgres(store): try await store.verify(heads: heads)
        }
    }

    /// Counts by type and category and the file's use: LMDB's alone (nil on PostgreSQL, whose
    /// own statistics views say more than a scan would).
    public func statistics() throws(EventLogError) -> LogStatistics? {
        switch self {
        case let .lmdb(store): try store.statistics()
        case .postgres: nil
        }
    }

    /// The LMDB environment's map size and use (nil on PostgreSQL).
    public var environmentInfo: EnvironmentInfo? {
        switch self {
        case let .lmdb(store): store.environmentInfo
        case .postgres: nil
        }
    }

    /// The kinds of tags in the log (`house` of `house:…`), for the audit by entity.
    public func tagKinds(kindsMax: Int) async throws(EventLogError) -> [String] {
        switch self {
        case let .lmdb(store): try store.tagKinds(kindsMax: kindsMax)
        case let .postgres(store): try await store.tagKinds(kindsMax: kindsMax)
        }
    }

    public func subscribe(from position: UInt64) -> Subscription {
        switch self {
        case let .lmdb(store): Subscription(source: .lmdb(store.subscribe(from: position)))
        case let .postgres(store): Subscription(source: .postgres(store.subscribe(from: position)))
        }
    }

    public struct Subscription: AsyncSequence, Sendable {
        public typealias Element = RecordedEvent
        public typealias Failure = EventLogError

        enum Source: Sendable {
            case lmdb(EventSubscription)
            case postgres(PostgresSubscription)
        }

        let source: Source

        public func makeAsyncIterator() -> Iterator {
            switch source {
            case let .lmdb(subscription): Iterator(source: .lmdb(subscription.makeAsyncIterator()))
            case let .postgres(subscription): Iterator(source: .postgres(subscription.makeAsyncIterator()))
            }
        }

        public struct Iterator: AsyncIteratorProtocol {
            enum Source {
                case lmdb(EventSubscription.Iterator)
                case postgres(PostgresSubscription.Iterator)
            }

            var source: Source

            public mutating func next() async throws(EventLogError) -> RecordedEvent? {
                switch source {
                case var .lmdb(iterator):
                    defer { source = .lmdb(iterator) }
                    return try await iterator.next()
                case var .postgres(iterator):
                    defer { source = .postgres(iterator) }
                    return try await iterator.next()
                }
            }
        }
    }
}
