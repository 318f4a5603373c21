import EventLog

/// Appends a number of events in large requests with several requests in flight, so the writer
/// thread always has the next batch queued. `bulk` times it on a durable store; `scan` and
/// `growth` use it on an `unsafeNoSync` store to build big logs quickly.
struct BatchedAppender: Sendable {
    let events: Int
    /// Events per `AppendRequest`, at most `EventLogLimits.eventsPerAppendMax`.
    let eventsPerAppend: Int
    /// Concurrent appenders; each owns one stream (`<streamPrefix>-<appender>`).
    let appendsInFlight: Int
    var streamPrefix = "bench"
    var commandIDs = CommandIDs.ordered

    /// Appends everything; returns the bytes of event data written.
    @discardableResult
    func run(on store: LMDBEventStore) async throws -> Int {
        precondition(eventsPerAppend >= 1 && appendsInFlight >= 1, "batches and appenders must be positive")
        let requests = (events + eventsPerAppend - 1) / eventsPerAppend
        let appenders = min(appendsInFlight, max(requests, 1))
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for appender in 0..<appenders {
                group.addTask {
                    try await append(appender: appender, of: appenders, requests: requests, store: store)
                }
            }
            var dataBytes = 0
            for try await bytes in group { dataBytes += bytes }
            return dataBytes
        }
    }

    /// Request `r` goes to appender `r % appenders`; the last request may be short.
    private func append(appender: Int, of appenders: Int, requests: Int, store: LMDBEventStore) async throws -> Int {
        let streamID = "\(streamPrefix)-\(appender)"
        let tag = BenchPayload.tag(writer: appender)
        var dataBytes = 0
        for request in stride(from: appender, to: requests, by: appenders) {
            let first = request * eventsPerAppend
            let count = min(eventsPerAppend, events - first)
            let batch = (first..<(first + count)).map { BenchPayload.event(streamID: streamID, tag: tag, sequence: $0) }
            dataBytes += batch.reduce(0) { $0 + $1.data.count }
            _ = try await store.append(BenchPayload.request(batch, commandIDs: commandIDs))
        }
        return dataBytes
    }
}
