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

    static let columns = [
        Column(key: "logEvents", title: "log events"),
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
            summary: "durable single-event appends from \(writers) writers on a small and a large log (filled without fsync, then flushed and reopened durable), \(shape)",
            columns: Self.columns
        )
        var rates: [Double] = []
        for size in [smallEvents, largeEvents] {
            let row = try await options.withDataDirectory("growth-\(size)") { directory in
                try await measure(logOf: size, in: directory)
            }
            rates.append(row.rate)
            report.add(row.figures)
        }
        let ratio = rates[0] / rates[1]
        report.notes.append("ratio small/large events/s = \(Figure.ratio(ratio).formatted)")
        report.notes.append(Target.check("growth ratio", ratio, atMost: 1.2, unit: ""))
        report.finish()
        return report
    }

    private func measure(logOf size: Int, in directory: String) async throws -> (rate: Double, figures: [Figure]) {
        Progress.say("growth: filling \(size) events (no fsync)")
        let fill = try await BenchLog.fill(directory, events: size)
        Progress.say("growth: \(writers) writers on \(size) events")
        let store = try BenchLog.open(directory)
        defer { store.close() }
        let before = try BenchLog.commitsAndBytes(store)
        let outcome = try await WriterLoad(writers: writers, stop: stop, shape: shape).run(on: store)
        let commits = try BenchLog.commitsAndBytes(store).commits - before.commits
        return (outcome.eventsPerSecond, [
            .count(size), .rate(Double(before.bytes) / 1_000_000), .seconds(fill.seconds), .count(writers),
            .count(outcome.events), .seconds(outcome.elapsed.seconds), .rate(outcome.eventsPerSecond),
            .rate(Double(outcome.events) / Double(max(commits, 1))),
            .milliseconds(outcome.latencies.p50), .milliseconds(outcome.latencies.p99),
        ])
    }
}
