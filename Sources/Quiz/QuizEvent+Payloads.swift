import EventSourcing
import Foundation

extension QuizEvent {
    /// `quiz.questionAdded`: trimmed and checked.
    public struct QuestionAdded: EventPayload {
        public static let typeName = "quiz.questionAdded"
        public var event: QuizEvent { .questionAdded(self) }
        public var streamID: String { "question-\(questionId)" }
        public var tags: [String] { [QuizEvent.questionTag(questionId), QuizEvent.questionTextTag(text)] }

        /// The new question.
        public var questionId: String
        /// Trimmed, 1–300 characters.
        public var text: String
        /// 2–6 answers, distinct ignoring case.
        public var answers: [String]
        /// One of `answers`, exactly as written there.
        public var correctAnswer: String
        /// Trimmed; absent when none.
        public var category: String?
    }

    /// `quiz.gameCreated`: the players (challenger first), the questions copied from the bank, and
    /// each player's answer order per question.
    public struct GameCreated: QuizGamePayload {
        public static let typeName = "quiz.gameCreated"
        public var event: QuizEvent { .gameCreated(self) }
        /// Also each player's, so that an audit by user finds their games.
        public var tags: [String] { [QuizEvent.gameTag(gameId)] + players.map { QuizEvent.userTag($0.userId) } }

        /// The new game.
        public var gameId: String
        /// The challenger, then the opponent.
        public var players: [QuizPlayer]
        /// Copies of the bank questions drawn for it, correct answers included.
        public var questions: [GameQuestion]
        /// `answerOrders[player][question]` is a permutation of that question's answer indexes.
        public var answerOrders: [[[Int]]]
        /// When it was created.
        public var createdAt: Date
    }

    /// `quiz.answerGiven`: whether it was right and what it earned, decided once, here.
    public struct AnswerGiven: QuizGamePayload {
        public static let typeName = "quiz.answerGiven"
        public var event: QuizEvent { .answerGiven(self) }

        /// The game.
        public var gameId: String
        /// The player who answered.
        public var userId: String
        /// 0-based; always the player's next unanswered question.
        public var index: Int
        /// The option chosen, exactly as the question writes it.
        public var answer: String
        /// Whether `answer` is `correctAnswer`.
        public var correct: Bool
        /// The right answer, which the player learns with this event.
        public var correctAnswer: String
        /// `QuizLimits.pointsPerCorrectAnswer` when correct, else 0.
        public var points: Int
        /// When it was given.
        public var answeredAt: Date
    }

    /// `quiz.gameFinished`: emitted with the answer that completed the game.
    public struct GameFinished: QuizGamePayload {
        public static let typeName = "quiz.gameFinished"
        public var event: QuizEvent { .gameFinished(self) }

        /// One player's end of a game.
        public struct Result: Codable, Sendable, Equatable {
            /// The player.
            public var userId: String
            /// Their points: one per correct answer.
            public var points: Int
            /// Won, lost or draw.
            public var outcome: QuizOutcome

            /// `userId` scored `points` and `outcome`.
            public init(userId: String, points: Int, outcome: QuizOutcome) {
                self.userId = userId
                self.points = points
                self.outcome = outcome
            }
        }

        /// The game.
        public var gameId: String
        /// In the game's player order.
        public var results: [Result]
        /// When: the time of the answer that finished it.
        public var finishedAt: Date
    }

    /// `quiz.resultSeen`.
    public struct ResultSeen: QuizGamePayload {
        public static let typeName = "quiz.resultSeen"
        public var event: QuizEvent { .resultSeen(self) }

        /// The game.
        public var gameId: String
        /// The player who saw it.
        public var userId: String
    }
}
