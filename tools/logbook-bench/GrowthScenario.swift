import EventLog

/// Whether appending gets slower as the log grows: the same durable many-writer load on a small
/// and on a large pre-filled log. B-tree depth grows with the log, and index pages of a big log
/// may no longer sit in the page cache, so the ratio is the figure to watch.
struct GrowthScenario {
    var smallEvents: Int
    var largeEvents: Int
    var writers: Int
    var stop: WriterLoad.Stop
    var shape = PayloadShape()
    /// Loads run back to back on each log; the ratio uses the last, so a first round that
    /// warms the page cache or the free list can be told apart from the steady state.
    var rounds = 1
    /// Events per request while filling; 1 gives the big log a `commands` index of its size.
    var fillEventsPerAppend = 1_000
    /// The measured log in the write-ahead mode (ADR 0006) instead of syncing each commit.
    var writeAhead = false
    /// The measured log's index tail (docs/decisions/0017); nil: the log's default, 0: none.
    var indexTail: Int?

    static let columns = [
        Column(key: "logEvents", title: "log events"),
        Column(key: "round", title: "round"),
        Column(key: "logMegabytes", title: "log MB"),
        Column(key: "fillSeconds", title: "fill s"),
        Column(key: "writers", title: "writers"),
        Column(key: "appended", title: "appended"),
        Column(key: "seconds", title: "seconds"),
        Column(key: "eventsPerSecond", title: "events/s"),
        Column(key: "eventsPerCommit", title: "events/commit"),
        Column(key: "p50Milliseconds", title: "p50 ms"),
        Column(key: "p99Milliseconds", title: "p99 ms"),
    ]

    func run(_ options: BenchOptions) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "growth",
            summary: "durable single-event appends from \(writers) writers on a small and a large log (filled without fsync in \(fillEventsPerAppend)-event commands, then flushed and reopened durable\(writeAhead ? ", write-ahead mode" : "")\(indexTail.map { ", index tail \($0)" } ?? "")), \(shape)",
            columns: Self.columns
        )
        var rates: [Double] = []
        for size in [smallEvents, largeEvents] {
            let rows = try await options.withDataDirectory("growth-\(size)") { directory in
                try await measure(logOf: size, in: directory)
            }
            rates.append(rows.last!.rate)
            for row in rows { report.add(row.figures) }
        }
        let ratio = rates[0] / rates[1]
        report.notes.append("ratio small/large events/s = \(Figure.ratio(ratio).formatted)")
        report.notes.append(Target.check("growth ratio", ratio, atMost: 1.2, unit: ""))
        report.finish()
        return report
    }

    private func measure(logOf size: Int, in directory: String) async throws -> [(rate: Double, figures: [Figure])] {
        Progress.say("growth: filling \(size) events (no fsync)")
        let fill = try await BenchLog.fill(directory, events: size, eventsPerAppend: fillEventsPerAppend, commandIDs: shape.commandIDs)
        let store = try BenchLog.open(directory, writeAhead: writeAhead, indexTail: indexTail)
        defer { store.close() }
        var rows: [(rate: Double, figures: [Figure])] = []
        for round in 1...rounds {
            Progress.say("growth: \(writers) writers on \(size) events, round \(round)")
            rows.append(try await measureRound(round, on: store, logOf: size, fill: fill))
        }
        return rows
    }

    private func measureRound(_ round: Int, on store: LMDBEventStore, logOf size: Int, fill: Duration) async throws -> (rate: Double, figures: [Figure]) {
        let before = try BenchLog.commitsAndBytes(store)
        let outcome = try await WriterLoad(writers: writers, stop: stop, shape: shape).run(on: store)
        let commits = try BenchLog.commitsAndBytes(store).commits - before.commits
        return (outcome.eventsPerSecond, [
            .count(size), .count(round), .rate(Double(before.bytes) / 1_000_000), .seconds(fill.seconds), .count(writers),
            .count(outcome.events), .seconds(outcome.elapsed.seconds), .rate(outcome.eventsPerSecond),
            .rate(Double(outcome.events) / Double(max(commits, 1))),
            .milliseconds(outcome.latencies.p50), .milliseconds(outcome.latencies.p99),
        ])
    }
}
