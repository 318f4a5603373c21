import EventLog

/// Many writers appending one event at a time, each awaiting its append before the next:
/// the shape of a server handling independent commands. Shared by `concurrent` and `growth`.
struct WriterLoad: Sendable {
    /// When each writer stops.
    enum Stop: Sendable {
        /// Keep appending until this much time has passed since the start.
        case after(Duration)
        /// Append exactly this many events per writer.
        case eventsPerWriter(Int)
    }

    /// What a load produced.
    struct Outcome: Sendable {
        let writers: Int
        let events: Int
        let elapsed: Duration
        let latencies: Percentiles

        var eventsPerSecond: Double { Double(events) / elapsed.seconds }
    }

    let writers: Int
    let stop: Stop
    /// Streams are named `<streamPrefix>-<writer>`.
    var streamPrefix = "bench"
    /// Shape of the appended events; varied only to show what each index costs.
    var shape = PayloadShape()

    func run(on store: some EventStore) async throws -> Outcome {
        precondition(writers >= 1, "a load needs a writer")
        let clock = ContinuousClock()
        let start = clock.now
        let perWriter = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for writer in 0..<writers {
                group.addTask { try await write(writer: writer, store: store, from: start) }
            }
            var all: [[Duration]] = []
            for try await latencies in group { all.append(latencies) }
            return all
        }
        let elapsed = clock.now - start
        let latencies = perWriter.flatMap { $0 }
        return Outcome(writers: writers, events: latencies.count, elapsed: elapsed, latencies: Percentiles(latencies))
    }

    /// One writer's loop; returns the latency of each of its appends.
    private func write(writer: Int, store: some EventStore, from start: ContinuousClock.Instant) async throws -> [Duration] {
        let clock = ContinuousClock()
        let streamID = "\(streamPrefix)-\(writer)"
        let tag = shape.tagged ? BenchPayload.tag(writer: writer) : nil
        var latencies: [Duration] = []
        var sequence = 0
        while true {
            switch stop {
            case .after(let duration): if clock.now - start >= duration { return latencies }
            case .eventsPerWriter(let count): if sequence >= count { return latencies }
            }
            // Built outside the timed span: latency is the store's, not the benchmark's.
            let request = BenchPayload.request(
                [BenchPayload.event(streamID: streamID, tag: tag, sequence: sequence)], commandIDs: shape.commandIDs
            )
            let began = clock.now
            _ = try await store.append(request)
            latencies.append(clock.now - began)
            sequence += 1
        }
    }
}
