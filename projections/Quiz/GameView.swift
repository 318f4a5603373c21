import Foundation
import Quiz

/// A game as one of its players may see it: their own points always, the opponent's only once
/// the game is over, and never a correct answer.
public struct GameView: Sendable, Equatable {
    /// One side of the game.
    public struct Side: Sendable, Equatable {
        /// The player.
        public var player: QuizPlayer
        /// Questions answered.
        public var answered: Int
        /// Points; nil for the opponent while the game runs.
        public var points: Int?
    }

    /// `running` until both players answered everything.
    public enum Status: String, Sendable, Equatable {
        /// Someone still has questions to answer.
        case running
        /// Scored.
        case finished
    }

    /// The game.
    public var gameId: String
    /// Running or finished.
    public var status: Status
    /// Questions each player answers.
    public var questionCount: Int
    /// The viewer.
    public var me: Side
    /// The other player.
    public var opponent: Side
    /// The viewer's outcome, once finished.
    public var outcome: QuizOutcome?
    /// Whether the viewer acknowledged the result.
    public var resultSeen: Bool
    /// When the game was created.
    public var createdAt: Date
    /// When the last answer came; nil while running.
    public var finishedAt: Date?

    init(_ game: StoredGame, seat: Int) {
        let (setup, progress) = (game.setup, game.progress)
        let other = 1 - seat
        let finished = progress.results != nil
        let points = game.answers.indices.map(game.points(of:))
        gameId = setup.gameId
        status = finished ? .finished : .running
        questionCount = setup.questions.count
        me = Side(player: setup.players[seat], answered: game.answers[seat].count, points: points[seat])
        opponent = Side(player: setup.players[other], answered: game.answers[other].count, points: finished ? points[other] : nil)
        outcome = progress.results?[seat].outcome
        resultSeen = progress.resultSeen[seat]
        createdAt = setup.createdAt
        finishedAt = progress.finishedAt
    }
}

/// The viewer's next unanswered question, its answers in the viewer's order.
public struct NextQuestion: Sendable, Equatable {
    /// 0-based.
    public var index: Int
    /// The question.
    public var text: String
    /// The options in the viewer's order; the correct one is not marked.
    public var answers: [String]
}

/// A page of a player's games, newest first.
public struct GamePage: Sendable, Equatable {
    /// The games on this page.
    public var games: [GameView]
    /// The cursor of the next page; nil on the last.
    public var next: String?
}
