import EventLog

/// One full forward read of a log in pages, every record's checksum checked as it is decoded:
/// what `scan` reports, and the reference `rebuild` measures beside its passes in the same run,
/// which says whether the machine itself was slow in that run.
struct LogScan {
    /// Events read.
    var events: Int
    /// Bytes of event data read.
    var dataBytes: Int
    /// How long the read took.
    var duration: Duration

    var eventsPerSecond: Double { Double(events) / duration.seconds }
    var dataMegabytesPerSecond: Double { Double(dataBytes) / 1_000_000 / duration.seconds }

    /// Reads `store` from position 1 to its head, a page of `readPageEventsMax` at a time.
    /// Throws when it reads another number of events than the head says the log holds.
    static func read(_ store: LMDBEventStore) throws -> LogScan {
        let head = try store.headPosition()
        let page = store.options.limits.readPageEventsMax
        let clock = ContinuousClock()
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
        let duration = clock.now - start
        guard events == Int(head) else { throw BenchError.unhealthy("scan read \(events) events of \(head)") }
        return LogScan(events: events, dataBytes: dataBytes, duration: duration)
    }
}
