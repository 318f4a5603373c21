import ArgumentParser
import EventLog
import Foundation
import PostgresEventLog
import Projections

/// `replay`: rebuilds one or every projection from position 1. Each new copy is built beside
/// the served one and swapped in once it has caught up, so it is safe while the server runs:
/// the server's runner notices the swap in its next batch.
///
/// With `--as-of` it touches no read model of the data directory: it computes them as of a
/// position or time into a temporary directory (`PointInTime`), prints their status there, and
/// with `--query` answers an app query as it was (`AsOfReplay`); the copy is removed at exit.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild projections from the log (all, or one with --projection), then print their status.",
        discussion: "The only verb besides demo that writes, and only to the read models (readmodels/), never to the log."
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Option(help: ArgumentHelp("Rebuild only this projection.", valueName: "name"))
    var projection: String?

    @Option(name: .customLong("as-of"), help: ArgumentHelp(
        "Compute the read models as of this log position or RFC 3339 time (the last event recorded at or before it) into a temporary copy; the served ones are untouched.",
        valueName: "position|time"))
    var asOf: AsOfPoint?

    @Option(help: ArgumentHelp("With --as-of: print this query's answer as JSON, as its HTTP route would (\(AsOfQuery.allCases.map(\.rawValue).joined(separator: ", "))).", valueName: "query"))
    var query: AsOfQuery?

    @Option(help: ArgumentHelp("The house of --query household-scoreboard.", valueName: "id"))
    var house: String?

    @Option(help: ArgumentHelp("The game of --query quiz-game.", valueName: "id"))
    var game: String?

    @Option(help: ArgumentHelp("The player of --query quiz-game whose view is shown.", valueName: "id"))
    var user: String?

    func validate() throws {
        if asOf == nil, query != nil { throw ValidationError("--query needs --as-of") }
        switch query {
        case .householdScoreboard where house == nil: throw ValidationError("--query household-scoreboard needs --house")
        case .quizGame where game == nil || user == nil: throw ValidationError("--query quiz-game needs --game and --user")
        default: break
        }
    }

    func run() async throws {
        if let asOf {
            try await AsOfReplay(dataDirectory: dataDirectory, point: asOf, projection: projection, query: query, house: house, game: game, user: user).run()
            return
        }
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let path = try dataDirectory.resolvedPath()
        // Personal fields in events are sealed (ADR 0004): opened with the server's keys.
        let keyring = try AdminKeyring.load(dataDirectory: path, log: log)
        let engine: ProjectionEngine<EventLogBackend>
        do {
            engine = try ProjectionEngine(log: log, dataDirectory: path, projections: LogbookProjections.all, personalData: keyring)
        } catch {
            throw AdminError.cannotOpenReadModels(path, error)
        }
        let names = LogbookProjections.all.map(\.name)
        if let projection, !names.contains(projection) {
            throw ValidationError("no projection named \(projection); known: \(names.joined(separator: ", "))")
        }
        _ = try await engine.prepare()
        for name in projection.map({ [$0] }) ?? names {
            let clock = ContinuousClock()
            let start = clock.now
            try await engine.rebuild(name)
            print("rebuilt \(name) in \((clock.now - start).formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))")
        }
        let rows = try await engine.status().map { status in
            [status.name, "\(status.version)", "\(status.generation)", "\(status.checkpoint)", "\(status.lag)", status.state.rawValue]
        }
        for line in TextColumns.render([["projection", "version", "generation", "checkpoint", "lag", "state"]] + rows, numeric: [1, 2, 3, 4]) {
            print(line)
        }
    }
}
