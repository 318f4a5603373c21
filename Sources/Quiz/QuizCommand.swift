/// What operators and players ask of the quiz. Ids, the random opponent, the random questions
/// and the shuffled answer orders are chosen by the caller, so deciding stays pure; the time
/// arrives in `CommandMetadata`.
public enum QuizCommand: Sendable, Equatable {
    /// Adds a question to the bank (operators, or `system` importing the starter bank).
    case addQuestion(NewQuestion)
    /// Starts a game between the actor and an opponent on ten questions.
    case createGame(NewGame)
    /// The actor answers question `index` (0-based) of a game with `answer`, one of its options.
    case answer(gameId: String, index: Int, answer: String)
    /// The actor has seen the result of a finished game.
    case markResultSeen(gameId: String)

    /// A question for the bank, as typed: the decider trims and checks it.
    public struct NewQuestion: Sendable, Equatable {
        /// The new question's id.
        public var questionId: String
        /// The question.
        public var text: String
        /// 2–6 distinct answers.
        public var answers: [String]
        /// The right answer, one of `answers`.
        public var correctAnswer: String
        /// An optional category (`geography`); empty means none.
        public var category: String?

        /// A question with its answers.
        public init(questionId: String, text: String, answers: [String], correctAnswer: String, category: String? = nil) {
            self.questionId = questionId
            self.text = text
            self.answers = answers
            self.correctAnswer = correctAnswer
            self.category = category
        }
    }

    /// A game as the caller prepared it.
    public struct NewGame: Sendable, Equatable {
        /// The new game's id.
        public var gameId: String
        /// The actor, who challenges.
        public var challengerId: String
        /// The actor's username; nil when the account has none (the quiz needs one).
        public var challengerUsername: String?
        /// The opponent: picked at random among players with a username, or named; nil when
        /// there was nobody to pick.
        public var opponent: QuizPlayer?
        /// The questions, drawn at random from the bank.
        public var questions: [GameQuestion]
        /// For the challenger then the opponent, for each question, the order its answers are
        /// shown in: a permutation of the answers' indexes, drawn at random once so that a player
        /// sees the same order every time.
        public var answerOrders: [[[Int]]]

        /// A prepared game.
        public init(
            gameId: String, challengerId: String, challengerUsername: String?, opponent: QuizPlayer?,
            questions: [GameQuestion], answerOrders: [[[Int]]]
        ) {
            self.gameId = gameId
            self.challengerId = challengerId
            self.challengerUsername = challengerUsername
            self.opponent = opponent
            self.questions = questions
            self.answerOrders = answerOrders
        }
    }
}
