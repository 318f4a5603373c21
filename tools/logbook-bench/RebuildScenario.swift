import ArgumentParser
import Crypto
import EventLog
import EventSourcing
import Foundation
import Projections

/// Building read models from position 1 of one app's log: first the initial build a fresh server
/// does (every read model it registers, `LogbookProjections.all`, in one pass: each event goes
/// past every projection, whichever app it belongs to), then `rebuild` of each of the app's own
/// projections while the old copy would keep serving. Read models without fsync: they are
/// rebuildable. Their pages still go through the page cache of `--dir`'s file system, which was
/// most of the builds' run-to-run spread on a disk (`--dir /dev/shm` leaves it out).
///
/// The run's reference is the log itself read from position 1 (`LogScan`, every record's
/// checksum checked), before the passes and after them; each pass is also given as a share of
/// its best read, so a run on a slow machine shows as one.
///
/// `sealed` writes and reads the log as a server does: with a keyring, so every declared
/// personal field is sealed under its subject's key (ADR 0004) and every projection that decodes
/// it opens it. Without it the events hold plain values, as pure code writes them.
struct RebuildScenario {
    var events: Int
    var app: BenchApp = .household
    var sealed = false

    static let columns = [
        Column(key: "pass", title: "pass"),
        Column(key: "events", title: "events"),
        Column(key: "seconds", title: "seconds"),
        Column(key: "eventsPerSecond", title: "events/s"),
        Column(key: "cpuSeconds", title: "cpu s"),
        Column(key: "eventsPerCPUSecond", title: "events/cpu s"),
        Column(key: "percentOfScan", title: "% of scan"),
    ]

    /// Reads of the log before the passes (the first also maps the file) and after them.
    static let scansBefore = 2
    static let scansAfter = 1

    func run(in directory: String) async throws -> ScenarioReport {
        guard sealed else { return try await measure(in: directory, keyring: nil) }
        // The server's own key store, in the scenario's data directory, under a throwaway secret.
        let keys = try PersonalDataKeyStore(dataDirectory: directory, secret: SymmetricKey(size: .bits256))
        return try await measure(in: directory, keyring: keys)
    }

    private func measure(in directory: String, keyring: (any PersonalDataKeyring)?) async throws -> ScenarioReport {
        let log = sealed ? "\(app.rawValue) log, personal data sealed" : "\(app.rawValue) log"
        var report = ScenarioReport(scenario: "rebuild", summary: "read models built from position 1 of a \(log)", columns: Self.columns)
        let store = try BenchLog.open(directory, unsafeNoSync: true)
        defer { store.close() }
        Progress.say("rebuild: filling about \(events) \(app.rawValue) events")
        let written = try await app.fill(store, events: events, sealer: EventSealer(keyring: keyring))
        let head = try store.headPosition()
        let registered = LogbookProjections.all
        // The keyring too, as a server passes it: every projection that decodes a sealed field opens it.
        let engine = try ProjectionEngine(
            log: store, dataDirectory: directory, projections: registered, sync: .unsafeNever, personalData: keyring)
        _ = try await engine.prepare()
        let clock = ContinuousClock()
        var scans = try Self.scan(store, times: Self.scansBefore)

        Progress.say("rebuild: initial build of all \(registered.count) read models")
        var start = clock.now
        var cpuStart = ResourceUsage.cpuSeconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            // A projection that fails stops the live loop; that error, not a timeout an hour
            // later, is what the run reports.
            group.addTask { try await engine.runLive() }
            group.addTask { try await engine.waitUntilProjected(head, timeout: .seconds(3_600)) }
            try await group.next()
            group.cancelAll()
        }
        var passes = [Pass(label: "initial build, all \(registered.count) read models", events: written, duration: clock.now - start,
                           cpuSeconds: ResourceUsage.cpuSeconds - cpuStart)]

        for projection in app.projections {
            Progress.say("rebuild: \(projection.name)")
            start = clock.now
            cpuStart = ResourceUsage.cpuSeconds
            try await engine.rebuild(projection.name)
            passes.append(Pass(label: "rebuild \(projection.name)", events: written, duration: clock.now - start,
                               cpuSeconds: ResourceUsage.cpuSeconds - cpuStart))
        }
        scans += try Self.scan(store, times: Self.scansAfter)

        var reference = scans.max { $0.rate < $1.rate }!
        reference.label = "reference: the log read, CRC checked (best of \(scans.count))"
        for pass in [reference] + passes { report.add(pass.row(reference: reference)) }
        let initial = passes[0]
        report.notes.append(Target.check(initial.label, initial.rate, atLeast: 250_000, unit: "events/s"))
        report.notes.append(Target.check(initial.label + " (stretch)", initial.rate, atLeast: 500_000, unit: "events/s"))
        for pass in passes.dropFirst() {
            report.notes.append(Target.check(pass.label, pass.rate, atLeast: 500_000, unit: "events/s"))
        }
        report.notes.append("reads of the log: " + scans.map { Figure.rate($0.rate).formatted }.joined(separator: ", ")
            + " events/s (\(Self.scansBefore) before the passes, \(Self.scansAfter) after)")
        report.finish()
        return report
    }
}

/// One measured pass over the log: a build, or a read of the log for reference.
private struct Pass {
    var label: String
    var events: Int
    var duration: Duration
    var cpuSeconds: Double

    var rate: Double { Double(events) / duration.seconds }

    func row(reference: Pass) -> [Figure] {
        [.text(label), .count(events), .seconds(duration.seconds), .rate(rate), .seconds(cpuSeconds), .rate(Double(events) / cpuSeconds),
         .rate(100 * rate / reference.rate)]
    }
}

extension RebuildScenario {
    /// `times` reads of the whole log, each measured.
    fileprivate static func scan(_ store: LMDBEventStore, times: Int) throws -> [Pass] {
        try (0..<times).map { _ in
            Progress.say("rebuild: reading the log for reference")
            let cpuStart = ResourceUsage.cpuSeconds
            let scan = try LogScan.read(store)
            return Pass(label: "scan", events: scan.events, duration: scan.duration, cpuSeconds: ResourceUsage.cpuSeconds - cpuStart)
        }
    }
}

/// `rebuild`: building read models from an app's log, or from each app's log in turn.
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Build all read models, then rebuild an app's own, from position 1 of the app's log.",
        discussion: "--app all runs household, quiz, neighbourhood, workplace and albums in turn, each on a fresh log of --events events."
    )

    /// One app, or each in turn.
    enum Apps: String, ExpressibleByArgument, CaseIterable {
        case household, quiz, neighbourhood, workplace, albums, all

        var apps: [BenchApp] {
            BenchApp(rawValue: rawValue).map { [$0] } ?? BenchApp.allCases
        }
    }

    @Option(help: "Events in each log.")
    var events = 1_000_000
    @Option(help: "Whose log and read models: household, quiz, neighbourhood, workplace, albums, or all (each in turn).")
    var app = Apps.household
    @Flag(help: "Write and read the log with a keyring, as a server does: personal fields sealed per user, opened by each projection that decodes them.")
    var sealed = false
    @OptionGroup var options: BenchOptions

    func validate() throws {
        guard events >= 1 else { throw ValidationError("--events must be positive") }
    }

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        for app in app.apps {
            let scenario = RebuildScenario(events: events, app: app, sealed: sealed)
            printer.print(try await options.withDataDirectory("rebuild-\(app.rawValue)") { try await scenario.run(in: $0) })
        }
        try printer.finish()
    }
}
