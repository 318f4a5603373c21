import ArgumentParser
import EventLog
import Foundation
import Projections
import Quiz

/// The app queries `replay --as-of --query` answers, as the HTTP routes answer them.
enum AsOfQuery: String, ExpressibleByArgument, CaseIterable {
    /// `GET /v1/houses/{houseId}/scoreboard`: needs `--house`.
    case householdScoreboard = "household-scoreboard"
    /// `GET /v1/quiz/games/{gameId}` as player `--user` sees it: needs `--game` and `--user`.
    case quizGame = "quiz-game"
}

/// The JSON bodies the routes answer, field for field (`Components.Schemas.Scoreboard`, `Game`).
enum AsOfAnswer {
    struct Scoreboard: Encodable {
        var members: [ScoreboardEntry]
    }

    struct Side: Encodable {
        var userId: String
        var username: String
        var answered: Int
        var points: Int?

        init(_ side: GameView.Side) {
            userId = side.player.userId
            username = side.player.username
            answered = side.answered
            points = side.points
        }
    }

    struct Game: Encodable {
        var gameId: String
        var status: String
        var questionCount: Int
        var me: Side
        var opponent: Side
        var outcome: String?
        var resultSeen: Bool
        var createdAt: Date
        var finishedAt: Date?

        init(_ game: GameView) {
            gameId = game.gameId
            status = game.status.rawValue
            questionCount = game.questionCount
            me = Side(game.me)
            opponent = Side(game.opponent)
            outcome = game.outcome?.rawValue
            resultSeen = game.resultSeen
            createdAt = game.createdAt
            finishedAt = game.finishedAt
        }
    }

    /// One line of JSON, keys sorted, times in RFC 3339.
    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
