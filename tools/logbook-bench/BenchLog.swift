import EventLog
import Foundation

/// Opening, pre-filling and sizing the logs the scenarios measure.
enum BenchLog {
    /// Opens the log in `directory`. Durable unless `unsafeNoSync`; everything else is the
    /// defaults a server would use, so the figures are the ones a server gets.
    static func open(
        _ directory: String, unsafeNoSync: Bool = false, writeAhead: Bool = false, checkpointCommits: Int? = nil, writebackCommits: Int? = nil,
        indexTail: Int? = nil
    ) throws -> LMDBEventStore {
        var options = EventStoreOptions()
        if let indexTail { options.indexTail.eventsMax = indexTail }
        options.unsafeNoSync = unsafeNoSync
        options.writeAhead = writeAhead
        if let writebackCommits { options.writeAheadCommitsPerWritebackStart = writebackCommits }
        if let checkpointCommits { options.writeAheadCommitsPerCheckpointMax = checkpointCommits }
        if unsafeNoSync {
            // Filling multi-GiB logs would otherwise double the map several times along the way.
            options.mapSizeBytes = 16 << 30
        }
        return try LMDBEventStore(dataDirectory: directory, options: options)
    }

    /// Fills `directory` with `events` events quickly (no fsync per commit), then closes the log
    /// and flushes it, so that the writeback of the fill does not land in a later durable
    /// measurement. Returns how long the fill took.
    ///
    /// Each request is one command, so `eventsPerAppend` decides how big the `commands` index
    /// grows: 1,000 is fastest, 1 gives the index a server taking single-event commands would have.
    static func fill(
        _ directory: String, events: Int, eventsPerAppend: Int = 1_000, commandIDs: CommandIDs = .ordered,
        streamPrefix: String = "fill"
    ) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        // A scope of its own: LMDB must not have the environment open twice in one process, so
        // the store is gone before anyone reopens the directory.
        do {
            let store = try open(directory, unsafeNoSync: true)
            // Enough requests in flight that every commit carries about 4,000 events (or the
            // writer's limit of appends per commit), whatever the request size.
            let inFlight = max(4, min(store.options.limits.appendsPerBatchMax, 4_000 / eventsPerAppend))
            let appender = BatchedAppender(
                events: events, eventsPerAppend: eventsPerAppend, appendsInFlight: inFlight, streamPrefix: streamPrefix,
                commandIDs: commandIDs
            )
            try await appender.run(on: store)
            store.close()
        }
        try flush(directory)
        return clock.now - start
    }

    /// fsyncs the data file: `unsafeNoSync` leaves dirty pages the kernel would write back later.
    static func flush(_ directory: String) throws {
        let path = (directory as NSString).appendingPathComponent("log/data.mdb")
        let descriptor = Foundation.open(path, O_RDWR)
        guard descriptor >= 0 else { throw BenchError.system("open \(path)", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw BenchError.system("fsync \(path)", errno) }
    }

    /// Write transactions committed so far and bytes of the map in use.
    ///
    /// `statistics()` also counts events per type and category by walking those indexes, which
    /// takes a moment on a big log, so it is only called outside timed spans.
    static func commitsAndBytes(_ store: LMDBEventStore) throws -> (commits: Int, bytes: Int) {
        let environment = try store.statistics().environment
        return (environment.lastTransactionID, environment.usedBytes)
    }
}

/// Failures of the benchmark itself (as opposed to the log's `EventLogError`).
enum BenchError: Error, CustomStringConvertible {
    case system(String, Int32)
    case unhealthy(String)
    case refused(String)

    var description: String {
        switch self {
        case let .system(what, code): "\(what) failed: \(String(cString: strerror(code)))"
        case let .unhealthy(what): what
        case let .refused(why): why
        }
    }
}
