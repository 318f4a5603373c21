import Crypto
import EventLog
import EventSourcing
import Foundation
import PostgresEventLog
import TestSupport
import Testing

/// The personal-data keys that servers sharing one PostgreSQL log share (ADR 0005): each
/// `PersonalDataKeyStore` here stands for one server, with its own cache and connection.
@Suite("PostgreSQL: shared personal-data keys", .timeLimit(.minutes(3)), .enabled(if: Backend.available.contains(.postgres)))
struct PostgresKeyTableTests {
    static let secret = SymmetricKey(data: Data((0..<32).map { UInt8($0) }))

    /// A new database with the log's schema, and its location.
    static func database() async throws -> (url: String, location: PostgresLocation) {
        let url = try await PrivatePostgres.newDatabase()
        let location = try PostgresLocation(url: url)
        await (try PostgresEventStore.connect(to: location)).close()
        return (url, location)
    }

    static func server(_ location: PostgresLocation, secret: SymmetricKey = secret) -> (PersonalDataKeyStore, PostgresKeyTable) {
        let table = PostgresKeyTable(location: location)
        return (PersonalDataKeyStore(storage: table, secret: secret), table)
    }

    static func bytes(_ key: SymmetricKey?) -> [UInt8]? { key?.withUnsafeBytes { Array($0) } }

    /// Off the cooperative pool, as the keyring's synchronous callers wait.
    @discardableResult
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    @Test func aKeyMadeByOneServerOpensOnAnotherAndAnErasureOnOneHoldsOnBoth() async throws {
        let (_, location) = try await Self.database()
        let (a, _) = Self.server(location), (b, _) = Self.server(location)
        try await Self.onThread {
            let made = try #require(try a.dataKey(of: "ann", create: true))
            #expect(Self.bytes(try b.dataKey(of: "ann", create: false)) == Self.bytes(made))
            #expect(try b.dataKey(of: "bob", create: false) == nil, "no key is made without create")

            try a.erase("ann")
            #expect(try b.isErased("ann"))
            let (c, _) = Self.server(location)  // a server that never cached it
            #expect(try c.dataKey(of: "ann", create: true) == nil, "no new key is ever made for an erased subject")
            // One that cached it forgets it when it carries out the erasure (ErasureFollower), and
            // the storage takes the second erasure as done.
            try b.erase("ann")
            #expect(try b.dataKey(of: "ann", create: true) == nil)
        }
    }

    @Test func concurrentFirstUsesOnTwoServersAgreeOnOneKey() async throws {
        let (_, location) = try await Self.database()
        let (a, tableA) = Self.server(location), (b, tableB) = Self.server(location)
        let subjects = (0..<100).map { "user-\($0)" }
        for subject in subjects {
            async let first = Self.onThread { Self.bytes(try a.dataKey(of: subject, create: true)) }
            async let second = Self.onThread { Self.bytes(try b.dataKey(of: subject, create: true)) }
            let (one, other) = try await (first, second)
            #expect(one != nil && one == other, "\(subject)")
        }
        // Both read "none" and both inserted, and the one that lost took the winner's key.
        #expect(tableA.lostCreates + tableB.lostCreates > 0, "the race happened")
    }

    @Test func aKeyOpensOnlyWithTheServersSecretAndTheTableHoldsNoPlainKey() async throws {
        let (url, location) = try await Self.database()
        let (a, _) = Self.server(location)
        let key = try await Self.onThread { try #require(try a.dataKey(of: "ann", create: true)) }
        let plain = Self.bytes(key)!.map { String(format: "%02x", $0) }.joined()
        // The row holds the sealed key, and its bytes nowhere hold the plain one.
        try await PrivatePostgres.execute(on: url, """
            DO $$ BEGIN
              IF NOT EXISTS (SELECT 1 FROM logbook_personal_keys WHERE subject = 'ann' AND length(sealed_key) = 60) THEN RAISE 'no sealed key'; END IF;
              IF EXISTS (SELECT 1 FROM logbook_personal_keys WHERE position('\\x\(plain)'::bytea in sealed_key) > 0) THEN RAISE 'plain key stored'; END IF;
            END $$
            """)
        let (other, _) = Self.server(location, secret: SymmetricKey(size: .bits256))
        try await Self.onThread {
            #expect(throws: PersonalDataError.self) { try other.dataKey(of: "ann", create: false) }
        }
    }

    @Test func aDataDirectorysKeysMoveIntoTheTableAndLeaveNoCopy() async throws {
        let (_, location) = try await Self.database()
        let directory = NSTemporaryDirectory() + "key-move-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let local = PersonalDataKeyStore(storage: try PersonalDataKeyFiles(dataDirectory: directory), secret: Self.secret)
        let ann = try #require(try local.dataKey(of: "ann", create: true))
        _ = try local.dataKey(of: "eve", create: true)
        try local.erase("eve")
        let (shared, _) = Self.server(location)
        try await Self.onThread {
            let files = try PersonalDataKeyFiles(dataDirectory: directory)
            #expect(try shared.moveEntries(from: files) == 2)
            #expect(Self.bytes(try shared.dataKey(of: "ann", create: false)) == Self.bytes(ann))
            #expect(try shared.isErased("eve"))
            #expect(try files.entries().isEmpty, "no local copy of a key outlives an erasure on another server")
            #expect(try shared.moveEntries(from: files) == 0)
        }
    }

    /// What must not move: a key sealed under another secret is refused (the start fails, saying
    /// so) and stays where it was; a key the table holds differently for the subject stays local,
    /// for an operator, and the table's is kept.
    @Test func keysThatCannotMoveStayWhereTheyAre() async throws {
        let (_, location) = try await Self.database()
        let directory = NSTemporaryDirectory() + "key-move-refused-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stranger = PersonalDataKeyStore(storage: try PersonalDataKeyFiles(dataDirectory: directory), secret: SymmetricKey(size: .bits256))
        _ = try stranger.dataKey(of: "eve", create: true)
        let (shared, _) = Self.server(location)
        try await Self.onThread {
            let files = try PersonalDataKeyFiles(dataDirectory: directory)
            #expect(throws: PersonalDataError.self) { try shared.moveEntries(from: files) }
            #expect(try files.entries().map(\.subject) == ["eve"], "the unopenable key stays")
            #expect(try shared.dataKey(of: "eve", create: false) == nil, "and was not spread")
        }
        try FileManager.default.removeItem(atPath: directory)

        let local = PersonalDataKeyStore(storage: try PersonalDataKeyFiles(dataDirectory: directory), secret: Self.secret)
        let localKey = try #require(try local.dataKey(of: "ann", create: true))
        try await Self.onThread {
            let tableKey = try #require(try shared.dataKey(of: "ann", create: true))
            #expect(Self.bytes(tableKey) != Self.bytes(localKey))
            let files = try PersonalDataKeyFiles(dataDirectory: directory)
            #expect(try shared.moveEntries(from: files) == 0)
            #expect(try files.entries().map(\.subject) == ["ann"], "a conflicting key stays local")
            let (fresh, _) = Self.server(location)
            #expect(Self.bytes(try fresh.dataKey(of: "ann", create: false)) == Self.bytes(tableKey), "the table's key is kept")
        }
    }

    @Test func anUnreachableDatabaseIsAnErrorNotAHang() async throws {
        let location = try PostgresLocation(url: "postgres://nobody@127.0.0.1:1/none")
        let (store, _) = Self.server(location)
        // Timed on the thread that waits, around the call alone: the test's task, once resumed,
        // can wait seconds more for a thread of the cooperative pool while the whole suite runs
        // (17.5 s in all once, on a slow day, with PostgreSQL servers starting beside it), which
        // is no part of the key table's wait. The bound is twice the table's own: a refusal
        // answers in milliseconds, a hang never.
        let (failure, waited) = try await Self.onThread { () -> ((any Error)?, Duration) in
            let started = ContinuousClock.now
            do {
                _ = try store.dataKey(of: "ann", create: true)
                return (nil, ContinuousClock.now - started)
            } catch {
                return (error, ContinuousClock.now - started)
            }
        }
        #expect(failure is PersonalDataError, "\(String(describing: failure))")
        #expect(waited < .seconds(2 * PostgresKeyTable.roundTripSecondsMax))
    }

    /// The database dropped the key table's connection while it was idle (a restart, a
    /// failover): the next call connects again instead of failing on the dropped one, whether or
    /// not this process had noticed the drop yet (both happen here, by the timing of the kill).
    @Test func aConnectionLostWhileIdleIsReplacedWithoutAnError() async throws {
        let (url, location) = try await Self.database()
        let (store, _) = Self.server(location)
        _ = try await Self.onThread { try store.dataKey(of: "ann", create: true) }
        try await PrivatePostgres.execute(
            on: url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        let made = try await Self.onThread { try store.dataKey(of: "bob", create: true) != nil }
        #expect(made)
    }

    @Test func aVersion1DatabaseIsMigratedAndANewerOneRefused() async throws {
        let (url, location) = try await Self.database()
        try await PrivatePostgres.execute(on: url, "DROP TABLE logbook_personal_keys, logbook_secret_check; DELETE FROM logbook_schema; INSERT INTO logbook_schema VALUES (1)")
        await (try PostgresEventStore.connect(to: location)).close()
        let (store, _) = Self.server(location)
        let made = try await Self.onThread { try store.dataKey(of: "ann", create: true) != nil }
        #expect(made, "the keys' table was made")

        try await PrivatePostgres.execute(on: url, "INSERT INTO logbook_schema VALUES (99)")
        await #expect(throws: EventLogError.incompatibleFormat(found: 99, supported: 3)) {
            _ = try await PostgresEventStore.connect(to: location)
        }
    }
}
