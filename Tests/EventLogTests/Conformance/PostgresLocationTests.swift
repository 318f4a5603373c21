import EventLog
import PostgresEventLog
import Testing

@Suite("PostgreSQL location")
struct PostgresLocationTests {
    @Test func aURLGivesEveryPartAndItsDescriptionHidesThePassword() throws {
        let location = try PostgresLocation(url: "postgresql://logbook:s3cret@db.internal:6543/events?sslmode=require")
        #expect(location.user == "logbook" && location.password == "s3cret")
        #expect(location.host == "db.internal" && location.port == 6543 && location.database == "events" && location.requiresTLS)
        #expect(location.description == "postgres://logbook@db.internal:6543/events?sslmode=require")
        let local = try PostgresLocation(url: "postgres://me@/logbook?host=/var/run/postgresql")
        #expect(local.socketPath == "/var/run/postgresql" && local.port == 5432 && !local.requiresTLS && local.password == nil)
    }

    @Test(arguments: [
        ("mysql://u@h/db", "expected postgres://user[:password]@host[:port]/database"),
        ("postgres://h/db", "the URL names no user"),
        ("postgres://u@h", "the URL names no database"),
        ("postgres://u@h/db?sslmode=verify-full", "sslmode verify-full is not supported (disable or require)"),
        ("not a url", "expected postgres://user[:password]@host[:port]/database"),
    ])
    func aURLMissingAPartIsRefusedSayingWhich(_ url: String, _ reason: String) {
        #expect(throws: EventLogError.invalidArgument(field: "eventStore", reason: reason)) { try PostgresLocation(url: url) }
    }
}
