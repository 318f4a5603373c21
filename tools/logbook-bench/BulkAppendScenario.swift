import EventLog

/// Durable appends of many events in large requests: the ceiling of the write path when fsync
/// is amortised over thousands of events.
struct BulkAppendScenario {
    var events: Int
    var eventsPerAppend: Int
    var appendsInFlight: Int

    static let columns = [
        Column(key: "events", title: "events"),
        Column(key: "eventsPerAppend", title: "events/append"),
        Column(key: "appendsInFlight", title: "in flight"),
        Column(key: "seconds", title: "seconds"),
        Column(key: "eventsPerSecond", title: "events/s"),
        Column(key: "dataMegabytesPerSecond", title: "data MB/s"),
        Column(key: "logMegabytesPerSecond", title: "log MB/s"),
        Column(key: "eventsPerCommit", title: "events/commit"),
    ]

    /// Appends into the (empty) log in `directory`, which the caller may go on to scan.
    func run(in directory: String) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "bulk",
            summary: "durable batched appends (fsync), \(BenchPayload.dataBytes)-byte JSON; data = event JSON, log = growth of the LMDB map",
            columns: Self.columns
        )
        Progress.say("bulk: \(events) events")
        let store = try BenchLog.open(directory)
        defer { store.close() }
        let before = try BenchLog.commitsAndBytes(store)
        let clock = ContinuousClock()
        let start = clock.now
        let dataBytes = try await BatchedAppender(events: events, eventsPerAppend: eventsPerAppend, appendsInFlight: appendsInFlight)
            .run(on: store)
        let seconds = (clock.now - start).seconds
        let after = try BenchLog.commitsAndBytes(store)
        let megabyte = 1_000_000.0
        report.add([
            .count(events), .count(eventsPerAppend), .count(appendsInFlight), .seconds(seconds),
            .rate(Double(events) / seconds), .rate(Double(dataBytes) / megabyte / seconds),
            .rate(Double(after.bytes - before.bytes) / megabyte / seconds),
            .rate(Double(events) / Double(max(after.commits - before.commits, 1))),
        ])
        report.notes.append("log size \(Figure.rate(Double(after.bytes) / megabyte).formatted) MB for \(Figure.count(events).formatted) events (\(Figure.count(after.bytes / max(events, 1)).formatted) bytes/event)")
        report.finish()
        return report
    }
}
