import Foundation
import EventLog
import Logging
import PostgresNIO
import Synchronization

/// The event log in PostgreSQL (SPEC §3a): the `EventStore` any number of servers share.
///
/// Every guarantee of the LMDB store holds, from the database instead of a file: appends are
/// durable when PostgreSQL commits them; one server's concurrent appends share a transaction
/// (group commit); positions are gap-free and committed in order because every append
/// transaction locks the head row first (`PostgresSchema`), across servers; conditions and
/// command ids are checked under that lock. Subscriptions follow the log through LISTEN/NOTIFY,
/// with a poll as the fallback for a notification lost with a connection.
public final class PostgresEventStore: EventStore, Sendable {
    /// The NOTIFY channel an append announces its new head on.
    static let channel = "logbook_appended"
    /// How long `connect` waits for the database (a connection, the schema, the head) before it
    /// gives up: a server starting beside a database that is itself starting, or on a loaded
    /// machine, waits rather than fails.
    public static let connectTimeoutSeconds = 60
    /// How long one connection attempt may take; the pool retries a failed one.
    static let connectionAttemptSeconds: Int64 = 10

    public let options: EventStoreOptions
    public let location: PostgresLocation
    let client: PostgresClient
    let logger: Logger
    /// The highest position known committed: from this server's commits and others' notifications.
    let headWatch: PositionWatch
    private let writer: PostgresAppendWriter
    private let background: Mutex<[Task<Void, Never>]>

    /// Connects, creates or checks the schema, and starts following other servers' appends.
    public static func connect(
        to location: PostgresLocation, options: EventStoreOptions = EventStoreOptions(),
        logger: Logger = Logger(label: "logbook.postgres")
    ) async throws(EventLogError) -> PostgresEventStore {
        var configuration = location.clientConfiguration
        configuration.options.connectTimeout = .seconds(connectionAttemptSeconds)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let run = Task { await client.run() }
        do {
            let head = try await withDeadline(seconds: connectTimeoutSeconds) {
                // One connection first, alone: a wrong address, user, password or database fails
                // now and says which, where the pool would retry until the deadline.
                var probe = try location.connectionConfiguration()
                probe.options.connectTimeout = .seconds(connectionAttemptSeconds)
                try await PostgresConnection.connect(configuration: probe, id: 0, logger: logger).close()
                try await PostgresSchema.prepare(client, logger: logger)
                return try await Self.committedHead(client, logger: logger)
            }
            return PostgresEventStore(location: location, options: options, client: client, run: run, head: head, logger: logger)
        } catch {
            run.cancel()
            throw mapped(error)
        }
    }

    private init(
        location: PostgresLocation, options: EventStoreOptions, client: PostgresClient, run: Task<Void, Never>, head: UInt64,
        logger: Logger
    ) {
        self.location = location
        self.options = options
        self.client = client
        self.logger = logger
        let watch = PositionWatch(position: head)
        headWatch = watch
        writer = PostgresAppendWriter(
            client: client, logger: logger, appendsPerBatchMax: options.limits.appendsPerBatchMax, clock: options.clock,
            onCommit: { watch.raise(to: $0) }, commitObserver: options.commitObserver
        )
        background = Mutex([run])
        let listener = Task { [client, logger] in
            await Self.follow(client, watch: watch, logger: logger)
        }
        background.withLock { $0.append(listener) }
    }

    /// Stops taking appends, lets the batch in flight finish, then closes the connections.
    public func close() async {
        await writer.close()
        closeNow()
    }

    /// Stops taking appends and closes the connections at once: a batch in flight fails, so its
    /// appends are not acknowledged (they may still have committed: a retry with the same command
    /// id answers which).
    public func closeNow() {
        writer.refuseNew()
        headWatch.close()
        // The listener before the pool it listens on: cancelled first, it takes the closed
        // connection for the close it is, not for a failure to log.
        for task in background.withLock({ $0 }).reversed() { task.cancel() }
    }

    // MARK: appends

    public func append(_ request: AppendRequest) async throws(EventLogError) -> AppendResult {
        try await append(contentsOf: [request])[0].get()
    }

    public func append(contentsOf requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>] {
        await options.limits.appendingValid(requests) { await writer.submit($0) }
    }

    /// Transactions this store has committed: how many appends shared one shows in tests.
    public var commitCount: Int { writer.commits }

    // MARK: one server at a time

    /// The advisory lock `alone` holds (the schema's is 7064931).
    static let aloneLockKey: Int64 = 7_064_932

    /// Runs `body` while no other server on this log runs its own `alone` body: a session-level
    /// advisory lock on one of the pool's connections, released at the end (or, should this
    /// process die, with its connection). For what one server must do by itself, such as seeding
    /// an empty log on a first start.
    public func alone<T>(_ body: () async throws -> T) async throws -> T {
        let logger = logger
        return try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(Self.aloneLockKey))", logger: logger)
            let value: T
            do {
                value = try await body()
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.aloneLockKey))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(Self.aloneLockKey))", logger: logger)
            return value
        }
    }

    // MARK: the head and its followers

    public func headPosition() async throws(EventLogError) -> UInt64 {
        try await database { try await Self.committedHead(client, logger: logger) }
    }

    public func subscribe(from position: UInt64) -> PostgresSubscription {
        PostgresSubscription(store: self, from: max(position, 1))
    }

    static func committedHead(_ client: PostgresClient, logger: Logger) async throws -> UInt64 {
        for try await (position) in try await client.query("SELECT position FROM logbook_head", logger: logger).decode(Int64.self) {
            return UInt64(position)
        }
        throw EventLogError.corruptRecord(position: 0, reason: "logbook_head has no row")
    }

    /// Waits until `position` is committed, or a poll interval passes; false once closed.
    func waitForEvent(at position: UInt64) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.headWatch.wait(untilReaching: position) }
            group.addTask { try? await Task.sleep(for: .milliseconds(self.options.pollIntervalMilliseconds)) }
            await group.next()
            group.cancelAll()
        }
        return !Task.isCancelled && !writer.isClosed
    }

    /// Listens for other servers' appends and raises the watch to each announced head; after a
    /// lost connection, listens again (subscriptions poll meanwhile).
    private static func follow(_ client: PostgresClient, watch: PositionWatch, logger: Logger) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        // Appends committed before LISTEN took effect sent nothing we saw.
                        watch.raise(to: try await committedHead(client, logger: logger))
                        for try await notification in notifications {
                            if let position = UInt64(notification.payload) { watch.raise(to: position) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for appends failed; retrying", metadata: ["error": "\(Self.mapped(error))"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    // MARK: errors

    /// Runs a database call, its failures as the log's errors.
    func database<T>(_ body: () async throws -> T) async throws(EventLogError) -> T {
        guard !writer.isClosed else { throw .closed }
        do {
            return try await body()
        } catch {
            throw Self.mapped(error)
        }
    }

    /// The log's error for a database failure. The reason names the failure's kind and SQLSTATE,
    /// never its message: PostgreSQL's messages can quote the values of a statement.
    static func mapped(_ error: any Error) -> EventLogError {
        switch error {
        case let error as EventLogError:
            return error
        case let error as PSQLError:
            if let state = error.serverInfo?[.sqlState] { return .unavailable(reason: "SQLSTATE \(state)") }
            // A socket's error (refused, reset, timed out) names no credential.
            return .unavailable(reason: error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)")
        case let error as PostgresTransactionError:
            // What went wrong inside the transaction says more than the rollback that followed.
            let cause = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
            return cause.map(mapped) ?? .unavailable(reason: "transaction failed")
        case is CancellationError:
            return .closed
        default:
            return .unavailable(reason: "\(type(of: error))")
        }
    }
}

/// Runs `body` or fails after `seconds`.
func withDeadline<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw EventLogError.unavailable(reason: "no answer within \(seconds) s")
        }
        return value
    }
}
