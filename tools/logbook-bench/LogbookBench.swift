import ArgumentParser

/// `logbook-bench`: comparable figures for the event log's write and read paths.
@main
struct LogbookBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-bench",
        abstract: "Benchmarks the Logbook event log (LMDBEventStore).",
        discussion: "Every scenario runs on a fresh data directory, removed afterwards unless --keep. Progress goes to standard error.",
        subcommands: [AllCommand.self, ConcurrentCommand.self, BulkCommand.self, ScanCommand.self, GrowthCommand.self, RebuildCommand.self, FillCommand.self,
                      CheckWorkplaceLogCommand.self, BlobUploadCommand.self]
    )
}

/// How long each writer of a many-writer load appends.
struct LoadOptions: ParsableArguments {
    @Option(help: "Seconds each measurement runs.")
    var seconds: Double = 10

    @Option(help: "Events each writer appends (overrides --seconds).")
    var eventsPerWriter: Int?

    @Option(name: .customLong("command-ids"), help: "Command ids: ordered (time-ordered UUIDv7, what AppendMetadata generates) or random (UUIDv4, as a client-chosen Idempotency-Key may be).")
    var commandIDs: CommandIDs = .ordered

    @Flag(help: "Append events without a tag (by default each carries one).")
    var noTags = false

    var shape: PayloadShape { PayloadShape(commandIDs: commandIDs, tagged: !noTags) }

    var stop: WriterLoad.Stop {
        if let eventsPerWriter { return .eventsPerWriter(eventsPerWriter) }
        return .after(.milliseconds(Int(seconds * 1_000)))
    }

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        if let eventsPerWriter, eventsPerWriter < 1 { throw ValidationError("--events-per-writer must be at least 1") }
    }
}

/// Parses `1,8,64`.
func parseCounts(_ text: String) throws -> [Int] {
    try parseCounts(text, atLeast: 1, example: "1,8,64")
}

/// Counts where 0 means "none" (`--writeback-commits`).
func parseCountsFromZero(_ text: String) throws -> [Int] {
    try parseCounts(text, atLeast: 0, example: "0,16")
}

private func parseCounts(_ text: String, atLeast minimum: Int, example: String) throws -> [Int] {
    let counts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? minimum - 1) >= minimum }) else {
        throw ValidationError("expected counts of \(minimum) or more separated by commas, such as \(example)")
    }
    return counts.compactMap { $0 }
}
