import ArgumentParser
import EventLog
import Foundation
import Projections

/// Building one app's read models from position 1: first the initial build a fresh server does
/// (all the app's projections in one pass), then `rebuild` of each projection while the old copy
/// would keep serving. Read models without fsync: they are rebuildable, and the figure is
/// about the projection code and LMDB, not the disk.
struct RebuildScenario {
    /// Whose log and read models.
    enum App: String, ExpressibleByArgument, CaseIterable {
        case household, quiz, neighbourhood

        var projections: [any Projection] {
            switch self {
            case .household: HouseholdProjections.all
            case .quiz: QuizProjections.all
            case .neighbourhood: NeighbourhoodProjections.all
            }
        }

        func fill(_ store: LMDBEventStore, events: Int) async throws -> Int {
            switch self {
            case .household: try await HouseholdLog.fill(store, events: events)
            case .quiz: try await QuizLog.fill(store, events: events)
            case .neighbourhood: try await NeighbourhoodLog.fill(store, events: events)
            }
        }
    }

    var events: Int
    var app: App = .household

    static let columns = [
        Column(key: "pass", title: "pass"),
        Column(key: "events", title: "events"),
        Column(key: "seconds", title: "seconds"),
        Column(key: "eventsPerSecond", title: "events/s"),
    ]

    func run(in directory: String) async throws -> ScenarioReport {
        var report = ScenarioReport(scenario: "rebuild", summary: "\(app.rawValue) read models built from position 1", columns: Self.columns)
        let store = try BenchLog.open(directory, unsafeNoSync: true)
        defer { store.close() }
        Progress.say("rebuild: filling about \(events) \(app.rawValue) events")
        let written = try await app.fill(store, events: events)
        let head = try store.headPosition()
        let engine = try ProjectionEngine(log: store, dataDirectory: directory, projections: app.projections, unsafeNoSync: true)
        _ = try await engine.prepare()
        let clock = ContinuousClock()

        Progress.say("rebuild: initial build of \(app.projections.count) projections")
        var start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            // A projection that fails stops the live loop; that error, not a timeout an hour
            // later, is what the run reports.
            group.addTask { try await engine.runLive() }
            group.addTask { try await engine.waitUntilProjected(head, timeout: .seconds(3_600)) }
            try await group.next()
            group.cancelAll()
        }
        let initial = clock.now - start
        report.add([.text("initial build, all projections"), .count(written), .seconds(initial.seconds), .rate(Double(written) / initial.seconds)])

        for projection in app.projections {
            Progress.say("rebuild: \(projection.name)")
            start = clock.now
            try await engine.rebuild(projection.name)
            let elapsed = clock.now - start
            report.add([.text("rebuild \(projection.name)"), .count(written), .seconds(elapsed.seconds), .rate(Double(written) / elapsed.seconds)])
        }
        report.notes.append(Target.check("initial build of all projections", Double(written) / initial.seconds, atLeast: 500_000, unit: "events/s"))
        report.finish()
        return report
    }
}

/// `rebuild`: building an app's read models from the log.
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rebuild", abstract: "Build and rebuild an app's read models from position 1.")

    @Option(help: "Events in the log.")
    var events = 1_000_000
    @Option(help: "Whose log and read models: household, quiz or neighbourhood.")
    var app = RebuildScenario.App.household
    @OptionGroup var options: BenchOptions

    func run() async throws {
        var printer = ReportPrinter(json: options.json)
        printer.print(try await options.withDataDirectory("rebuild") { try await RebuildScenario(events: events, app: app).run(in: $0) })
        try printer.finish()
    }
}
