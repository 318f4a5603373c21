import EventLog
import Foundation
import PostgresEventLog
import TestSupport
import Testing

/// `logbook-admin`'s read verbs with `--event-store`: the same listing of the same events,
/// whether the log is a data directory or a PostgreSQL database.
@Suite("logbook-admin on PostgreSQL", .timeLimit(.minutes(3)), .enabled(if: Backend.available.contains(.postgres)))
struct AdminCLIPostgresTests {
    /// A JSON line without the ids each append draws at random.
    private func withoutIDs(_ object: [String: Any]) -> NSDictionary {
        var object = object
        for key in ["commandId", "correlationId", "causationId"] { object[key] = nil }
        return object as NSDictionary
    }

    @Test func theReadVerbsListAPostgreSQLLogAsTheyListAFile() async throws {
        let file = try await AdminTestLog.make()
        defer { file.remove() }
        let url = try await PrivatePostgres.newDatabase()
        let clock = AdminTestClock(AdminTestLog.start)
        var options = EventStoreOptions()
        options.clock = { clock.now }
        let store = try await PostgresEventStore.connect(to: PostgresLocation(url: url), options: options)
        _ = try await AdminTestLog.write(to: store, clock: clock)
        await store.close()

        for verb in [["events", "--json"], ["events", "--type", "household.taskAdded", "--json"], ["stream", "house-1", "--backward", "--json"],
                     ["audit", "--entity", "1", "--json"], ["audit", "--actor", "bob", "--json"]] {
            let fromFile = try await AdminRun(verb + ["--data-dir", file.directory])
            let fromDatabase = try await AdminRun(verb + ["--event-store", url])
            #expect(fromFile.status == 0 && fromDatabase.status == 0, "\(verb): \(fromFile.stderr) \(fromDatabase.stderr)")
            let expected = try fromFile.jsonLines().map(withoutIDs)
            #expect(!expected.isEmpty, "\(verb) lists something")
            #expect(try fromDatabase.jsonLines().map(withoutIDs) == expected, "\(verb)")
        }
        // The chain head a server would publish, and verify against it, from the database.
        let head = try await AdminRun(["head", "--event-store", url])
        #expect(head.status == 0 && head.stdout.hasPrefix("6:"), "\(head.stdout) \(head.stderr)")
        let verified = try await AdminRun(["verify", "--event-store", url, "--head", head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        try await PrivatePostgres.execute(on: url, "UPDATE logbook_events SET chain_hash = '\\x00' WHERE position = 2")
        let damaged = try await AdminRun(["verify", "--event-store", url])
        #expect(damaged.status == 1 && damaged.stdout.contains("position 2"), "\(damaged.stdout)")

        // A database that is not there is refused at once, saying why; the password never shows.
        let started = ContinuousClock.now
        let refused = try await AdminRun(["events", "--event-store", "postgres://u:hunter2@127.0.0.1:1/none"])
        #expect(refused.status == 2 && refused.stderr.contains("Connection refused") && !refused.stderr.contains("hunter2"), "\(refused.stderr)")
        #expect(ContinuousClock.now - started < .seconds(15), "refused, not retried until the deadline")
    }

    /// `tail` on a shared log: the last events, then those another process appends.
    @Test func tailFollowsAPostgreSQLLog() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let store = try await PostgresEventStore.connect(to: PostgresLocation(url: url))
        _ = try await AdminTestLog.write(to: store, clock: AdminTestClock(AdminTestLog.start))
        let tail = try await AdminTail(["tail", "--json", "-n", "2", "--event-store", url])
        defer { tail.kill() }
        #expect(await tail.waitUntil { $0 == [5, 6] }, "history: \(tail.output)")
        _ = try await store.append(request([event("house-9"), event("house-9")]))
        #expect(await tail.waitUntil { $0 == [5, 6, 7, 8] }, "live: \(tail.output)")
        await store.close()
        #expect(await tail.terminate().status == 0, "SIGTERM ends tail normally")
    }
}
