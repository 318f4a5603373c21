import EventLog

/// A full forward read of the log in pages, every record's checksum checked as it is decoded,
/// and `verify()` over the same log.
struct ScanScenario {
    /// Events to fill an empty log with before scanning (ignored when the log has events).
    var fillEvents: Int

    /// Full reads of the log; the first includes mapping the file.
    static let passes = 3

    static let columns = [
        Column(key: "pass", title: "pass"),
        Column(key: "events", title: "events"),
        Column(key: "seconds", title: "seconds"),
        Column(key: "eventsPerSecond", title: "events/s"),
        Column(key: "dataMegabytesPerSecond", title: "data MB/s"),
    ]

    func run(in directory: String) async throws -> ScenarioReport {
        var report = ScenarioReport(
            scenario: "scan",
            summary: "full log scan: readAll pages (CRC checked per record) and verify()",
            columns: Self.columns
        )
        let isEmpty: Bool
        do {
            // Closed and released before the fill reopens the directory (one environment per process).
            let probe = try BenchLog.open(directory)
            isEmpty = try probe.headPosition() == 0
            probe.close()
        }
        if isEmpty {
            Progress.say("scan: filling \(fillEvents) events (no fsync)")
            let fill = try await BenchLog.fill(directory, events: fillEvents)
            report.notes.append("filled \(Figure.count(fillEvents).formatted) events in \(Figure.seconds(fill.seconds).formatted) s (unsafeNoSync)")
        }
        let store = try BenchLog.open(directory)
        defer { store.close() }
        let head = try store.headPosition()
        let page = store.options.limits.readPageEventsMax
        let clock = ContinuousClock()

        // Pass 1 also maps the file into this process (a page fault per 4 KiB page); later passes
        // show the steady state. Every pass is reported; the target is judged on the best.
        var bestRate = 0.0
        for pass in 1...Self.passes {
            Progress.say("scan: readAll pass \(pass) over \(head) events")
            let start = clock.now
            var next: UInt64 = 1
            var events = 0
            var dataBytes = 0
            while true {
                let batch = try store.readAll(from: next, direction: .forward, limit: page)
                guard let last = batch.last else { break }
                events += batch.count
                for event in batch { dataBytes += event.data.count }
                next = last.position + 1
            }
            let scan = clock.now - start
            guard events == Int(head) else { throw BenchError.unhealthy("scan read \(events) events of \(head)") }
            bestRate = max(bestRate, Double(events) / scan.seconds)
            report.add([.text("readAll, \(page)/page, pass \(pass)"), .count(events), .seconds(scan.seconds),
                        .rate(Double(events) / scan.seconds), .rate(Double(dataBytes) / 1_000_000 / scan.seconds)])
        }

        Progress.say("scan: verify()")
        let start = clock.now
        let verified = try store.verify()
        let verify = clock.now - start
        guard verified.isHealthy else { throw BenchError.unhealthy("verify found \(verified.problemCount) problems") }
        report.add([.text("verify()"), .count(verified.eventsChecked), .seconds(verify.seconds),
                    .rate(Double(verified.eventsChecked) / verify.seconds), .text("-")])
        report.notes.append(Target.check("scan (best pass)", bestRate, atLeast: 2_000_000, unit: "events/s"))
        report.finish()
        return report
    }
}
