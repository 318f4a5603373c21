import EventLog
import Foundation
import PostgresEventLog
import TestSupport
import Testing

/// The check value of the servers' shared secret that a PostgreSQL log keeps (SPEC §3a): the
/// first value stored stays, whatever starts race it, and a log written before it gets one.
@Suite("PostgreSQL: the shared secret's check value", .timeLimit(.minutes(3)), .enabled(if: Backend.available.contains(.postgres)))
struct PostgresSecretCheckTests {
    /// Servers starting on a new log at once, each with its own value: every one is answered
    /// the same stored value, one of theirs.
    @Test func simultaneousFirstStartsAgreeOnOneValue() async throws {
        let location = try PostgresLocation(url: try await PrivatePostgres.newDatabase())
        let stores = try await withThrowingTaskGroup(of: PostgresEventStore.self) { group in
            for _ in 0..<8 { group.addTask { try await PostgresEventStore.connect(to: location) } }
            return try await group.reduce(into: [PostgresEventStore]()) { $0.append($1) }
        }
        let values = (0..<stores.count).map { [UInt8](repeating: UInt8($0 + 1), count: 32) }
        let answers = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for (store, value) in zip(stores, values) { group.addTask { try await store.secretCheck(storingIfAbsent: value) } }
            return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(Set(answers).count == 1 && values.contains(answers[0]), "one value won and every start was told it")
        #expect(try await stores[0].secretCheck(storingIfAbsent: [UInt8](repeating: 0xEE, count: 32)) == answers[0], "it stays")
        for store in stores { await store.close() }
    }

    /// A log of schema version 2 (written before the check) gets the table at the next
    /// connect, and the first server then stores its own value.
    @Test func aLogWrittenBeforeTheCheckTakesTheFirstValueStored() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let location = try PostgresLocation(url: url)
        await (try PostgresEventStore.connect(to: location)).close()
        try await PrivatePostgres.execute(on: url, "DROP TABLE logbook_secret_check; DELETE FROM logbook_schema; INSERT INTO logbook_schema VALUES (2)")
        let store = try await PostgresEventStore.connect(to: location)
        let first = [UInt8](repeating: 7, count: 32)
        #expect(try await store.secretCheck(storingIfAbsent: first) == first)
        #expect(try await store.secretCheck(storingIfAbsent: [UInt8](repeating: 8, count: 32)) == first)
        await store.close()
    }
}
