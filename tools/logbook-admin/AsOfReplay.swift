import ArgumentParser
import EventLog
import Foundation
import PostgresEventLog
import Projections

/// `replay --as-of`: read models computed from the log's prefix into a temporary directory,
/// their status there, and optionally one app query's answer as JSON.
struct AsOfReplay {
    let dataDirectory: DataDirectoryOption
    let point: AsOfPoint
    let projection: String?
    let query: AsOfQuery?
    let house: String?
    let game: String?
    let user: String?

    func run() async throws {
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let path = try dataDirectory.resolvedPath()
        let keyring = try AdminKeyring.load(dataDirectory: path, log: log)
        let all = LogbookProjections.all
        let chosen: [any Projection]
        if let projection {
            guard let one = all.first(where: { $0.name == projection }) else {
                throw ValidationError("no projection named \(projection); known: \(all.map(\.name).joined(separator: ", "))")
            }
            // A query needs its app's read models whatever else was chosen.
            chosen = [one]
        } else {
            chosen = all
        }
        let needed: [any Projection] = switch query {
        case .householdScoreboard: LogbookProjections.household
        case .quizGame: LogbookProjections.quiz
        case nil: []
        }
        let projections = chosen + needed.filter { wanted in !chosen.contains { $0.name == wanted.name } }
        let copy: PointInTime<EventLogBackend>
        do throws(PointInTimeError) {
            let position = try await point.resolve(in: log)
            copy = try await PointInTime.build(log: log, through: position, projections: projections, personalData: keyring)
        } catch .readModel(let error) {
            throw AdminError.cannotOpenReadModels(path, error)
        } catch {
            // Position 0, beyond the head, a time before the first event: the invocation's fault.
            throw ValidationError(error.description)
        }
        if let query {
            print(try answer(query, on: copy))
            return
        }
        print("as of position \(copy.position)")
        let rows = try await copy.engine.status().filter { status in chosen.contains { $0.name == status.name } }.map { status in
            [status.name, "\(status.version)", "\(status.checkpoint)", status.state.rawValue]
        }
        for line in TextColumns.render([["projection", "version", "checkpoint", "state"]] + rows, numeric: [1, 2]) {
            print(line)
        }
    }

    /// The query's JSON body, or exit status 1 when its entity did not exist as of the copy.
    private func answer(_ query: AsOfQuery, on copy: PointInTime<EventLogBackend>) throws -> String {
        switch query {
        case .householdScoreboard:
            let queries = HouseholdQueries(engine: copy.engine)
            guard let house, try queries.house(id: house) != nil else { throw notFound("house \(house ?? "")", copy) }
            return try AsOfAnswer.line(AsOfAnswer.Scoreboard(members: queries.scoreboard(house: house)))
        case .quizGame:
            let queries = QuizQueries(engine: copy.engine)
            guard let game, let user, let view = try queries.game(game, viewer: user) else {
                throw notFound("game \(game ?? "") with player \(user ?? "")", copy)
            }
            return try AsOfAnswer.line(AsOfAnswer.Game(view))
        }
    }

    private func notFound(_ what: String, _ copy: PointInTime<EventLogBackend>) -> ExitCode {
        FileHandle.standardError.write(Data("logbook-admin: no \(what) as of position \(copy.position)\n".utf8))
        return ExitCode(AdminError.failureStatus)
    }
}
