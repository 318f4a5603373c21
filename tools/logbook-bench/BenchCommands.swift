import ArgumentParser
import Foundation

/// `concurrent`: durable single-event appends from several writer counts.
struct ConcurrentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "concurrent", abstract: "Durable single-event appends from 1, 8, 64 concurrent writers.")

    @Option(help: "Writer counts to measure, comma-separated (default: 1,8,64).", transform: parseCounts)
    var writers: [Int] = [1, 8, 64]
    @Option(name: .customLong("event-store"), help: ArgumentHelp(
        "Also measure a PostgreSQL log (postgres://user@host:port/database), each writer count right after LMDB's.", valueName: "url"))
    var eventStore: String?
    @Flag(name: .customLong("write-ahead"), help: "Also measure the log in its write-ahead mode (ADR 0006), each writer count right after the syncing mode.")
    var writeAhead = false
    @Option(name: .customLong("checkpoint-commits"), help: "In the write-ahead mode, checkpoint after at most this many commits (default: the log's own).")
    var checkpointCommits: Int?
    @Option(name: .customLong("writeback-commits"), help: ArgumentHelp(
        "With --write-ahead, also measure the mode starting LMDB's writeback every N commits (0: leaving it to the checkpoints), each after the default; comma-separated.",
        valueName: "N,..."), transform: parseCountsFromZero)
    var writebackCommits: [Int] = []
    @Option(name: .customLong("index-tail"), help: ArgumentHelp(
        "Also measure each mode with an index tail of N events instead of the log's default (docs/decisions/0017), each after the mode's default; 0 for none; comma-separated.",
        valueName: "N,..."), transform: parseCountsFromZero)
    var indexTails: [Int] = []
    @OptionGroup var load: LoadOptions
    @OptionGroup var options: BenchOptions

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        printer.print(try await ConcurrentAppendScenario(
            writerCounts: writers, stop: load.stop, shape: load.shape, eventStore: eventStore, writeAhead: writeAhead, checkpointCommits: checkpointCommits,
            writebackCommits: writebackCommits, indexTails: indexTails).run(options))
        try printer.finish()
    }
}

/// `bulk`: durable appends in large batches.
struct BulkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bulk", abstract: "Durable appends of many events in large requests.")

    @Option(help: "Events to append.")
    var events = 1_000_000
    @Option(help: "Events per append request (at most the log's eventsPerAppendMax, 1,000).")
    var eventsPerAppend = 1_000
    @Option(help: "Append requests in flight at once.")
    var appendsInFlight = 4
    @OptionGroup var options: BenchOptions

    func validate() throws {
        guard events >= 1, appendsInFlight >= 1 else { throw ValidationError("--events and --appends-in-flight must be positive") }
        guard (1...1_000).contains(eventsPerAppend) else { throw ValidationError("--events-per-append must be 1…1000") }
    }

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        let scenario = BulkAppendScenario(events: events, eventsPerAppend: eventsPerAppend, appendsInFlight: appendsInFlight)
        printer.print(try await options.withDataDirectory("bulk") { try await scenario.run(in: $0) })
        try printer.finish()
    }
}

/// `scan`: a full read of the log and `verify()`.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "scan", abstract: "Full log scan with checksum checks, and verify().")

    @Option(help: "Events in the log to scan (filled quickly, without fsync).")
    var events = 1_000_000
    @OptionGroup var options: BenchOptions

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        printer.print(try await options.withDataDirectory("scan") { try await ScanScenario(fillEvents: events).run(in: $0) })
        try printer.finish()
    }
}

/// `growth`: append throughput on a small and on a large log.
struct GrowthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "growth", abstract: "Durable append throughput on a small and on a large log.")

    @Option(help: "Events in the small log.")
    var smallEvents = 100_000
    @Option(help: "Events in the large log.")
    var largeEvents = 5_000_000
    @Option(help: "Concurrent writers during the measurement.")
    var writers = 64
    @Option(help: "Measurements back to back on each log; the ratio uses the last.")
    var rounds = 1
    @Option(help: "Events per request while filling the logs (1: one command per event, as a server taking single-event commands would store; slower to fill).")
    var fillEventsPerAppend = 1_000
    @Flag(name: .customLong("write-ahead"), help: "Measure the logs in the write-ahead mode (ADR 0006) instead of syncing each commit.")
    var writeAhead = false
    @Option(name: .customLong("index-tail"), help: "Measure the logs with an index tail of N events instead of the log's default (docs/decisions/0017); 0: none.")
    var indexTail: Int?
    @OptionGroup var load: LoadOptions
    @OptionGroup var options: BenchOptions

    func validate() throws {
        guard indexTail.map({ $0 >= 0 }) ?? true else { throw ValidationError("--index-tail must not be negative") }
        guard smallEvents >= 0, largeEvents >= 0, writers >= 1, rounds >= 1 else {
            throw ValidationError("sizes must not be negative; --writers and --rounds must be positive")
        }
        guard (1...1_000).contains(fillEventsPerAppend) else { throw ValidationError("--fill-events-per-append must be 1…1000") }
    }

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        let scenario = GrowthScenario(
            smallEvents: smallEvents, largeEvents: largeEvents, writers: writers, stop: load.stop, shape: load.shape,
            rounds: rounds, fillEventsPerAppend: fillEventsPerAppend, writeAhead: writeAhead, indexTail: indexTail
        )
        printer.print(try await scenario.run(options))
        try printer.finish()
    }
}

/// `all`: every scenario in sequence; modest sizes unless `--full`.
struct AllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract: "Every scenario in sequence.",
        discussion: "Modest sizes by default (under a minute on 2 cores): 5 s per load, 500,000 bulk events scanned afterwards, growth 100,000 vs 1,000,000. --full uses the issue's sizes: 10 s per load, 1,000,000 bulk events, growth 100,000 vs 5,000,000 (about two minutes)."
    )

    @Flag(help: "Use the issue's full sizes instead of the quick defaults.")
    var full = false
    @OptionGroup var options: BenchOptions

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        let seconds = full ? 10 : 5
        let stop = WriterLoad.Stop.after(.seconds(seconds))
        printer.print(try await ConcurrentAppendScenario(writerCounts: [1, 8, 64], stop: stop, writeAhead: true).run(options))
        // The scan reads the log the bulk scenario wrote, as a real catch-up would.
        let bulk = BulkAppendScenario(events: full ? 1_000_000 : 500_000, eventsPerAppend: 1_000, appendsInFlight: 4)
        let (bulkReport, scanReport) = try await options.withDataDirectory("bulk") { directory in
            let bulkReport = try await bulk.run(in: directory)
            return (bulkReport, try await ScanScenario(fillEvents: 0).run(in: directory))
        }
        printer.print(bulkReport)
        printer.print(scanReport)
        let growth = GrowthScenario(smallEvents: 100_000, largeEvents: full ? 5_000_000 : 1_000_000, writers: 64, stop: stop)
        printer.print(try await growth.run(options))
        try printer.finish()
    }
}
