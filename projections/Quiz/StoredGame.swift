import Foundation
import Quiz

/// A game as the games read model keeps it: everything, correct answers included. Only
/// `GameView` and `NextQuestion`, built per viewer, leave the read model.
struct StoredGame: Codable, Sendable, Equatable {
    /// One answer given.
    struct Answer: Codable, Sendable, Equatable {
        var answer: String
        var correct: Bool
        var points: Int
    }

    var gameId: String
    var createdAt: Date
    /// Challenger first.
    var players: [QuizPlayer]
    var questions: [GameQuestion]
    /// `answerOrders[seat][question]`.
    var answerOrders: [[[Int]]]
    /// `answers[seat]`, in question order.
    var answers: [[Answer]]
    /// Set when the game finished, in seat order.
    var results: [QuizEvent.GameFinished.Result]?
    var finishedAt: Date?
    /// By seat.
    var resultSeen: [Bool]

    init(_ created: QuizEvent.GameCreated) {
        gameId = created.gameId
        createdAt = created.createdAt
        players = created.players
        questions = created.questions
        answerOrders = created.answerOrders
        answers = created.players.map { _ in [] }
        resultSeen = created.players.map { _ in false }
    }

    func seat(of userId: String) -> Int? {
        players.firstIndex { $0.userId == userId }
    }
}
