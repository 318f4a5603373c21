import Foundation

/// Everything the server is configured with; from flags and the environment (`logbook serve`).
public struct LogbookConfiguration: Sendable {
    /// The data directory: the log in `log/` (unless `eventStore` names another), read models in
    /// `readmodels/`, keys, image files.
    public var dataDirectory: String
    /// The log's PostgreSQL (`--event-store postgres://…`, `LOGBOOK_EVENT_STORE`), shared with
    /// other servers; nil keeps the log in the data directory (SPEC §3a).
    public var eventStore: String?
    /// The address to listen on.
    public var host: String
    /// The port to listen on (0: any free port).
    public var port: Int
    /// The token operator routes require (`LOGBOOK_OPERATOR_TOKEN`); none disables them.
    public var operatorToken: String?
    /// bcrypt cost (`LOGBOOK_BCRYPT_COST`): 12 by default, 4 in tests, never below 10 in production.
    public var bcryptCost: Int
    /// Bytes a JSON request body may hold.
    public var jsonBodyBytesMax: Int
    /// How long a command waits for the read models to include its events before answering.
    public var readYourWritesTimeout: Duration
    /// Skip fsync (tests only): acknowledged commands could be lost on power failure.
    public var unsafeNoSync: Bool
    /// The log's write-ahead mode (ADR 0006): one flush per batch of appends instead of LMDB's
    /// two. Only for the data directory's own log. On unless the caller turns it off
    /// (`logbook serve --no-write-ahead`, `LOGBOOK_WRITE_AHEAD=0`; tests that skip syncs, since
    /// the mode still flushes its file and keeps 32 MB of them per log).
    public var writeAhead: Bool
    /// The log's index tail (docs/decisions/0017): up to this many events' stream, category,
    /// type and tag entries are written together while appends queue; 0 writes them with each
    /// commit; nil keeps the log's own default (`IndexTailPolicy`). Only for the data
    /// directory's own log.
    public var indexTailEventsMax: Int?
    /// The service clock; injectable so tests control time.
    public var clock: @Sendable () -> Date
    /// How the service waits before answering (a slowed-down login); injectable so tests see
    /// the waits without waiting.
    public var pause: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// How often the server collects image blobs nothing references (`BlobCollectionService`).
    public var blobCollectionInterval: Duration = .seconds(3_600)
    /// How old an unreferenced blob's file must be to be collected: an upload not yet shown by
    /// a photo, avatar or news item is kept this long, so a client has time to use it.
    public var blobGracePeriod: Duration = .seconds(24 * 3_600)

    /// A configuration with production defaults.
    public init(
        dataDirectory: String, host: String = "127.0.0.1", port: Int = 8080, operatorToken: String? = nil,
        bcryptCost: Int = 12, jsonBodyBytesMax: Int = 1 << 20, readYourWritesTimeout: Duration = .seconds(5),
        unsafeNoSync: Bool = false, writeAhead: Bool = true, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.operatorToken = operatorToken
        self.bcryptCost = bcryptCost
        self.jsonBodyBytesMax = jsonBodyBytesMax
        self.readYourWritesTimeout = readYourWritesTimeout
        self.unsafeNoSync = unsafeNoSync
        self.writeAhead = writeAhead
        self.clock = clock
    }
}
