import EventLog
import Foundation
import PostgresEventLog

/// Durable single-event appends from 1, 8, 64 … concurrent writers: throughput and latency of
/// group commit. Each writer count gets a fresh, empty LMDB log; with `eventStore`, the same load
/// then runs on that PostgreSQL log, right after, for a side-by-side figure.
struct ConcurrentAppendScenario {
    var writerCounts: [Int]
    var stop: WriterLoad.Stop
    var shape = PayloadShape()
    /// A PostgreSQL log to measure beside LMDB (`--event-store`); its streams are new per run.
    var eventStore: String?

    static let columns = [
        Column(key: "log", title: "log"),
        Column(key: "writers", title: "writers"),
        Column(key: "events", title: "events"),
        Column(key: "seconds", title: "seconds"),
        Column(key: "eventsPerSecond", title: "events/s"),
        Column(key: "eventsPerCommit", title: "events/commit"),
        Column(key: "p50Milliseconds", title: "p50 ms"),
        Column(key: "p99Milliseconds", title: "p99 ms"),
        Column(key: "maxMilliseconds", title: "max ms"),
    ]

    func run(_ options: BenchOptions) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "concurrent",
            summary: "durable single-event appends (fsync; PostgreSQL: synchronous commit), \(BenchPayload.dataBytes)-byte JSON, one stream per writer, \(shape)",
            columns: Self.columns
        )
        var outcomes: [WriterLoad.Outcome] = []
        for writers in writerCounts {
            Progress.say("concurrent: \(writers) writers")
            let (outcome, commits) = try await options.withDataDirectory("concurrent-\(writers)") { directory in
                let store = try BenchLog.open(directory)
                defer { store.close() }
                let before = try BenchLog.commitsAndBytes(store).commits
                let outcome = try await WriterLoad(writers: writers, stop: stop, shape: shape).run(on: store)
                return (outcome, try BenchLog.commitsAndBytes(store).commits - before)
            }
            outcomes.append(outcome)
            report.add(row("lmdb", writers, outcome, commits: commits))
            if let eventStore {
                Progress.say("concurrent: \(writers) writers on PostgreSQL")
                let store = try await PostgresEventStore.connect(to: PostgresLocation(url: eventStore))
                let before = store.commitCount
                var load = WriterLoad(writers: writers, stop: stop, shape: shape)
                load.streamPrefix = "bench\(UUID().uuidString.prefix(8).lowercased())"  // new streams on a log that may hold others
                let outcome = try await load.run(on: store)
                let commits = store.commitCount - before
                await store.close()
                report.add(row("postgres", writers, outcome, commits: commits))
            }
        }
        if let single = outcomes.first(where: { $0.writers == 1 }) {
            report.notes.append(Target.check("single-writer p50 (LMDB)", single.latencies.p50, atMost: 0.6, unit: "ms"))
        }
        if let many = outcomes.first(where: { $0.writers == 64 }) {
            report.notes.append(Target.check("64-writer throughput (LMDB)", many.eventsPerSecond, atLeast: 100_000, unit: "events/s"))
        }
        report.finish()
        return report
    }

    private func row(_ log: String, _ writers: Int, _ outcome: WriterLoad.Outcome, commits: Int) -> [Figure] {
        [
            .text(log), .count(writers), .count(outcome.events), .seconds(outcome.elapsed.seconds), .rate(outcome.eventsPerSecond),
                .rate(Double(outcome.events) / Double(max(commits, 1))),
            .milliseconds(outcome.latencies.p50), .milliseconds(outcome.latencies.p99), .milliseconds(outcome.latencies.max),
        ]
    }
}
