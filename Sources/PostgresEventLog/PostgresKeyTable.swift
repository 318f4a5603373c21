import EventLog
import EventSourcing
import Logging
import PostgresNIO
import Synchronization

/// The personal-data keys of every server on one PostgreSQL log, in `logbook_personal_keys`
/// beside the log: a key made by one server is the key the others open its users' data with, and
/// an erasure on one is an erasure on all (ADR 0005). Each server caches what it has read
/// (`PersonalDataKeyStore`), so a subject costs one round trip per server.
///
/// The keyring is synchronous (a payload is sealed and opened inside encoding and decoding), so
/// the table is reached through one connection of its own and the calling thread waits for the
/// answer: never on an event loop (the connection's own thread would be the one waiting), and
/// never longer than `roundTripSecondsMax`.
public final class PostgresKeyTable: PersonalDataKeyStorage {
    /// How long one statement may take, connecting included, before the caller gets an error.
    public static let roundTripSecondsMax: Int64 = 10

    private let location: PostgresLocation
    private let logger: Logger
    /// The connection, made on first use and again after one fails.
    private let connection = Mutex<PostgresConnection?>(nil)
    /// Creates that found the subject's key made first by another caller: the races a test
    /// provokes show here.
    private let createsLost = Atomic(0)

    /// How many creates found the subject's key made first by another caller.
    public var lostCreates: Int { createsLost.load(ordering: .relaxed) }

    /// The table of the database `location` names; its schema is created by the event store's
    /// connect (`PostgresSchema`), which a server runs first.
    public init(location: PostgresLocation, logger: Logger = Logger(label: "logbook.postgres.keys")) {
        self.location = location
        self.logger = logger
    }

    deinit {
        if let open = connection.withLock({ $0 }) { Self.close(open) }
    }

    public func entry(of subject: String) throws -> StoredDataKey? {
        let rows = try run("SELECT sealed_key FROM logbook_personal_keys WHERE subject = \(subject)")
        guard let row = rows.first else { return nil }
        return try decoded(row)
    }

    public func create(_ sealed: [UInt8], for subject: String) throws -> StoredDataKey {
        let key = ByteBuffer(bytes: sealed)
        let inserted = try run(
            """
            INSERT INTO logbook_personal_keys (subject, sealed_key) VALUES (\(subject), \(key))
            ON CONFLICT (subject) DO NOTHING RETURNING sealed_key
            """)
        if let row = inserted.first { return try decoded(row) }
        createsLost.add(1, ordering: .relaxed)
        // Another server made it first (its insert committed, or ours waited for it): a new
        // statement sees its row.
        guard let existing = try entry(of: subject) else {
            throw PersonalDataError.keyStore(path: location.description, reason: "a key row vanished")
        }
        return existing
    }

    /// Sets the row to erased (no key), then vacuums the table so the row's old version, which
    /// held the sealed key, is removed once no transaction still sees it. What WAL and backups
    /// kept is sealed under the server's secret.
    public func erase(_ subject: String) throws {
        _ = try run(
            """
            INSERT INTO logbook_personal_keys (subject, sealed_key) VALUES (\(subject), NULL)
            ON CONFLICT (subject) DO UPDATE SET sealed_key = NULL
            """)
        _ = try? run("VACUUM logbook_personal_keys")
    }

    // MARK: The connection

    private func decoded(_ row: PostgresRow) throws -> StoredDataKey {
        do {
            guard let buffer = try row.decode(ByteBuffer?.self) else { return .erased }
            return .sealed(Array(buffer.readableBytesView))
        } catch {
            throw PersonalDataError.keyStore(path: location.description, reason: "a key row does not decode")
        }
    }

    /// Runs `query` on the table's connection and waits for its rows. A failure closes the
    /// connection; one that was open before this call (the database may have dropped it while it
    /// was idle, say at a restart, before this process noticed) is replaced and the statement
    /// tried once more, which every statement here allows. The error names the database's
    /// address and the failure's kind, never a statement's values.
    private func run(_ query: PostgresQuery) throws -> [PostgresRow] {
        precondition(MultiThreadedEventLoopGroup.currentEventLoop == nil, "the key table is waited for off the event loops")
        var retried = false
        while true {
            let connection: PostgresConnection, reused: Bool
            do {
                (connection, reused) = try connected()
            } catch {
                throw failure(error)
            }
            do {
                let watchdog = connection.eventLoop.scheduleTask(in: .seconds(Self.roundTripSecondsMax)) { Self.close(connection) }
                defer { watchdog.cancel() }
                return try connection.query(query, logger: logger).wait().rows
            } catch {
                forget(connection)
                guard reused, !retried else { throw failure(error) }
                retried = true
            }
        }
    }

    private func failure(_ error: any Error) -> PersonalDataError {
        .keyStore(path: location.description, reason: "\(PostgresEventStore.mapped(error))")
    }

    /// The open connection, or a new one; whether it was open before.
    private func connected() throws -> (PostgresConnection, reused: Bool) {
        try connection.withLock { connection throws -> (PostgresConnection, reused: Bool) in
            if let open = connection, !open.isClosed { return (open, true) }
            var configuration = try location.connectionConfiguration()
            configuration.options.connectTimeout = .seconds(Self.roundTripSecondsMax)
            let made = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: 1, logger: logger
            ).wait()
            connection = made
            return (made, false)
        }
    }

    private func forget(_ failed: PostgresConnection) {
        connection.withLock { connection in
            if connection === failed { connection = nil }
        }
        Self.close(failed)
    }

    /// Closes `connection` without waiting (its future's overload, not the async one), keeping
    /// it alive until closed: a connection may not be released open.
    private static func close(_ connection: PostgresConnection) {
        let closed: EventLoopFuture<Void> = connection.close()
        closed.whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}
