import EventLog
import Logging
import PostgresNIO

/// The log's tables in PostgreSQL, created or migrated when a store connects.
///
/// Each event is stored as the same binary record the LMDB log writes (docs/record-format.md),
/// with its chain hash, so one decoder, one checksum and one chain serve both backends. The
/// other columns are the indexes reads and conditions need. `logbook_head` is one row: the last
/// position, its chain hash and the last recording time. Every append transaction locks it
/// first, so appends from any number of servers are applied one batch at a time, in position
/// order, and a reader that sees position N+1 also sees N (a sequence alone would let a later
/// transaction commit first and leave a gap readers could pass).
enum PostgresSchema {
    /// The layout this build reads and writes: one step of `migrations` per version.
    static var version: Int32 { Int32(migrations.count) }

    /// The statements of each version, in order: version N is reached from N - 1 by
    /// `migrations[N - 1]`, so a database of any earlier version is brought up to date.
    static let migrations: [[PostgresQuery]] = [createVersion1, createVersion2, createVersion3]

    /// Version 1: the log.
    static let createVersion1: [PostgresQuery] = [
        """
        CREATE TABLE logbook_head (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            position bigint NOT NULL,
            chain_hash bytea NOT NULL,
            recorded_at_us bigint NOT NULL
        )
        """,
        """
        CREATE TABLE logbook_events (
            position bigint PRIMARY KEY,
            stream_id text COLLATE "C" NOT NULL,
            stream_version bigint NOT NULL,
            category text COLLATE "C" NOT NULL,
            type text COLLATE "C" NOT NULL,
            record bytea NOT NULL,
            chain_hash bytea NOT NULL,
            UNIQUE (stream_id, stream_version)
        )
        """,
        "CREATE INDEX logbook_events_by_category ON logbook_events (category, position)",
        "CREATE INDEX logbook_events_by_type ON logbook_events (type, position)",
        """
        CREATE TABLE logbook_tags (
            tag text COLLATE "C" NOT NULL,
            position bigint NOT NULL,
            PRIMARY KEY (tag, position)
        )
        """,
        """
        CREATE TABLE logbook_commands (
            command_id uuid PRIMARY KEY,
            first_position bigint NOT NULL,
            last_position bigint NOT NULL,
            fingerprint bytea NOT NULL
        )
        """,
        "INSERT INTO logbook_head (position, chain_hash, recorded_at_us) VALUES (0, \(ByteBuffer(bytes: ChainHash.genesis)), 0)",
    ]

    /// Version 2: the personal-data keys every server shares (`PostgresKeyTable`): a subject's
    /// data key sealed under the servers' secret, or NULL once the subject was erased.
    static let createVersion2: [PostgresQuery] = [
        """
        CREATE TABLE logbook_personal_keys (
            subject text COLLATE "C" PRIMARY KEY,
            sealed_key bytea
        )
        """,
    ]

    /// Version 3: the check value of the secret key the log's servers share
    /// (`PostgresEventStore.secretCheck(storingIfAbsent:)`): one row, written by the first server
    /// that starts on the log, compared by every later one.
    static let createVersion3: [PostgresQuery] = [
        """
        CREATE TABLE logbook_secret_check (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            check_value bytea NOT NULL
        )
        """,
    ]

    /// Creates the tables on first use, migrates an older layout, and refuses a newer one. Servers
    /// starting together take an advisory lock, so one creates and the others wait and find it.
    static func prepare(_ client: PostgresClient, logger: Logger) async throws {
        let found: Int32? = try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7064931)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS logbook_schema (version integer NOT NULL)", logger: logger)
            var found: Int32?
            for try await (version) in try await connection.query("SELECT max(version) FROM logbook_schema", logger: logger)
                .decode(Int32?.self) {
                found = version
            }
            let from = Int(found ?? 0)
            guard from < migrations.count else { return found }
            for statement in migrations[from...].joined() {
                try await connection.query(statement, logger: logger)
            }
            try await connection.query("INSERT INTO logbook_schema (version) VALUES (\(version))", logger: logger)
            return version
        }
        if let found, found > version {
            throw EventLogError.incompatibleFormat(found: UInt32(found), supported: UInt32(version))
        }
    }
}
