import EventLog
import Foundation
import PostgresEventLog

/// Durable single-event appends from 1, 8, 64 … concurrent writers: throughput and latency of
/// group commit. Each writer count gets a fresh, empty LMDB log; with `writeAhead`, a second one
/// in the write-ahead mode right after; with `eventStore`, the same load then runs on that
/// PostgreSQL log, for a side-by-side figure. The disk's own 8 KiB write + `fdatasync` comes
/// first, as the reference of the run.
struct ConcurrentAppendScenario {
    var writerCounts: [Int]
    var stop: WriterLoad.Stop
    var shape = PayloadShape()
    /// A PostgreSQL log to measure beside LMDB (`--event-store`); its streams are new per run.
    var eventStore: String?
    /// Also measure the LMDB log in its write-ahead mode (`--write-ahead`, ADR 0006).
    var writeAhead = false
    /// The write-ahead mode's checkpoint interval in commits; nil: the log's default.
    var checkpointCommits: Int?
    /// With `writeAhead`, more logs in that mode, each starting LMDB's writeback every so many
    /// commits (0: leaving it to the checkpoints) instead of the log's default.
    var writebackCommits: [Int] = []
    /// More logs with the index tail (`--index-tail`, docs/decisions/0017) of each of these
    /// sizes instead of the log's default, in each mode measured; 0 for none.
    var indexTails: [Int] = []

    /// The logs each writer count runs on, in turn; a nil index tail is the log's default.
    private var modes: [(log: String, writeAhead: Bool, writebackCommits: Int?, indexTail: Int?)] {
        let syncing = [("lmdb", false, Int?.none, Int?.none)] + indexTails.map { ("lmdb, index tail \($0)", false, Int?.none, $0) }
        guard writeAhead else { return syncing }
        return syncing + [("lmdb, write-ahead", true, nil, nil)]
            + writebackCommits.map { ($0 == 0 ? "lmdb, write-ahead, no early writeback" : "lmdb, write-ahead, writeback/\($0)", true, $0, nil) }
            + indexTails.map { ("lmdb, write-ahead, index tail \($0)", true, nil, $0) }
    }

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
        Column(key: "writtenBytesPerEvent", title: "written B/event"),
    ]

    func run(_ options: BenchOptions) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "concurrent",
            summary: "durable single-event appends (fsync; PostgreSQL: synchronous commit), \(BenchPayload.dataBytes)-byte JSON, one stream per writer, \(shape)",
            columns: Self.columns
        )
        Progress.say("concurrent: the disk's 8 KiB write + fdatasync")
        let disk = try await options.withDataDirectory("disk-probe") { try DiskSyncProbe.measure(in: $0) }
        report.add([
            .text("disk: 8 KiB pwrite+fdatasync"), .count(1), .count(disk.latencies.count), .seconds(disk.elapsed.seconds),
            .rate(Double(disk.latencies.count) / disk.elapsed.seconds), .rate(1),
            .milliseconds(disk.latencies.p50), .milliseconds(disk.latencies.p99), .milliseconds(disk.latencies.max),
            .count(DiskSyncProbe.writeBytes),
        ])
        var outcomes: [String: [WriterLoad.Outcome]] = [:]
        for writers in writerCounts {
            for (log, inWriteAhead, everyCommits, indexTail) in modes {
                Progress.say("concurrent: \(writers) writers, \(log)")
                let (outcome, commits, written) = try await options.withDataDirectory("concurrent-\(writers)") { directory in
                    let store = try BenchLog.open(
                        directory, writeAhead: inWriteAhead, checkpointCommits: checkpointCommits, writebackCommits: everyCommits, indexTail: indexTail)
                    defer { store.close() }
                    let before = try BenchLog.commitsAndBytes(store).commits
                    let bytesBefore = ProcessWrites.bytes()
                    let outcome = try await WriterLoad(writers: writers, stop: stop, shape: shape).run(on: store)
                    let bytesAfter = ProcessWrites.bytes()
                    let written = bytesBefore.flatMap { before in bytesAfter.map { $0 - before } }
                    return (outcome, try BenchLog.commitsAndBytes(store).commits - before, written)
                }
                outcomes[log, default: []].append(outcome)
                report.add(row(log, writers, outcome, commits: commits, writtenBytes: written))
            }
            if let eventStore {
                Progress.say("concurrent: \(writers) writers on PostgreSQL")
                let store = try await PostgresEventStore.connect(to: PostgresLocation(url: eventStore))
                let before = store.commitCount
                var load = WriterLoad(writers: writers, stop: stop, shape: shape)
                load.streamPrefix = "bench\(UUID().uuidString.prefix(8).lowercased())"  // new streams on a log that may hold others
                let outcome = try await load.run(on: store)
                let commits = store.commitCount - before
                await store.close()
                report.add(row("postgres", writers, outcome, commits: commits, writtenBytes: nil))
            }
        }
        for (log, outcomes) in outcomes.sorted(by: { $0.key < $1.key }) {
            if let single = outcomes.first(where: { $0.writers == 1 }) {
                report.notes.append(Target.check("single-writer p50 (\(log))", single.latencies.p50, atMost: 0.6, unit: "ms"))
            }
            if let many = outcomes.first(where: { $0.writers == 64 }) {
                report.notes.append(Target.check("64-writer throughput (\(log))", many.eventsPerSecond, atLeast: 100_000, unit: "events/s"))
            }
        }
        report.finish()
        return report
    }

    /// `writtenBytes`: what this process had written to storage during the load (nil: unknown,
    /// or another process wrote it).
    private func row(_ log: String, _ writers: Int, _ outcome: WriterLoad.Outcome, commits: Int, writtenBytes: Int?) -> [Figure] {
        [
            .text(log), .count(writers), .count(outcome.events), .seconds(outcome.elapsed.seconds), .rate(outcome.eventsPerSecond),
                .rate(Double(outcome.events) / Double(max(commits, 1))),
            .milliseconds(outcome.latencies.p50), .milliseconds(outcome.latencies.p99), .milliseconds(outcome.latencies.max),
            writtenBytes.map { .count($0 / max(outcome.events, 1)) } ?? .text("–"),
        ]
    }
}
