import Foundation
import Projections
import Quiz

/// Conversions and random draws for the quiz routes.
enum QuizRoutes {
    /// The actor of questions added through the operator route: the operator token names no user.
    static let operatorActor = "operator"

    /// For each of the two seats and each question, its answers' indexes in a random order:
    /// drawn once, stored in the game, so a player sees the same order on every read.
    static func answerOrders(for questions: [GameQuestion], using generator: inout some RandomNumberGenerator) -> [[[Int]]] {
        (0..<2).map { _ in questions.map { Array($0.answers.indices).shuffled(using: &generator) } }
    }

    static func player(_ player: QuizPlayer) -> Components.Schemas.QuizPlayer {
        .init(userId: player.userId, username: player.username)
    }

    static func summary(_ game: GameView) -> Components.Schemas.GameSummary {
        .init(gameId: game.gameId, opponent: player(game.opponent.player), status: status(game.status),
              myAnswered: game.me.answered, opponentAnswered: game.opponent.answered, myPoints: game.me.points ?? 0,
              opponentPoints: game.opponent.points, outcome: game.outcome.map(outcome), resultSeen: game.resultSeen,
              createdAt: game.createdAt, finishedAt: game.finishedAt)
    }

    static func game(_ game: GameView) -> Components.Schemas.Game {
        .init(gameId: game.gameId, status: status(game.status), questionCount: game.questionCount,
              me: side(game.me), opponent: side(game.opponent), outcome: game.outcome.map(outcome),
              resultSeen: game.resultSeen, createdAt: game.createdAt, finishedAt: game.finishedAt)
    }

    static func stats(_ stats: PlayerStats) -> Components.Schemas.PlayerStats {
        .init(username: stats.username, played: stats.played, won: stats.won, lost: stats.lost, drawn: stats.drawn)
    }

    private static func side(_ side: GameView.Side) -> Components.Schemas.GameSide {
        .init(userId: side.player.userId, username: side.player.username, answered: side.answered, points: side.points)
    }

    private static func status(_ status: GameView.Status) -> Components.Schemas.GameStatus {
        switch status {
        case .running: .running
        case .finished: .finished
        }
    }

    private static func outcome(_ outcome: QuizOutcome) -> Components.Schemas.GameOutcome {
        switch outcome {
        case .won: .won
        case .lost: .lost
        case .draw: .draw
        }
    }

    static let gameNotFound = ProblemMapping.problem(for: QuizError.gameNotFound)

    static func playerNotFound(_ username: String) -> Problem {
        Problem(status: .notFound, code: "player_not_found", title: "Not found", detail: "nobody plays the quiz as \(username)")
    }
}
