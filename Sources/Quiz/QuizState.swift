/// What the quiz decider knows: the questions and games of one command's boundary.
public struct QuizState: Sendable, Equatable {
    /// A game as far as deciding needs it.
    public struct Game: Sendable, Equatable {
        /// Challenger first.
        public var players: [QuizPlayer]
        /// The game's copies of its questions.
        public var questions: [GameQuestion]
        /// Per player (in `players` order), the answers given so far, in question order.
        public var answers: [[QuizEvent.AnswerGiven]]
        /// Whether the game has finished.
        public var isFinished = false
        /// Players who acknowledged the result.
        public var resultSeenBy: Set<String> = []

        /// The index of `userId` in `players`; nil for anyone else.
        public func seat(of userId: String) -> Int? {
            players.firstIndex { $0.userId == userId }
        }
    }

    /// Bank questions by id, with their normalised text.
    public var questionTexts: [String: String] = [:]
    /// Games by id.
    public var games: [String: Game] = [:]

    /// No questions, no games.
    public init() {}

    /// The state after `event`.
    mutating func apply(_ event: QuizEvent) {
        switch event {
        case .questionAdded(let p):
            questionTexts[p.questionId] = QuestionText.normalised(p.text)
        case .gameCreated(let p):
            games[p.gameId] = Game(players: p.players, questions: p.questions, answers: p.players.map { _ in [] })
        case .answerGiven(let p):
            guard let seat = games[p.gameId]?.seat(of: p.userId) else { return }
            games[p.gameId]?.answers[seat].append(p)
        case .gameFinished(let p):
            games[p.gameId]?.isFinished = true
        case .resultSeen(let p):
            games[p.gameId]?.resultSeenBy.insert(p.userId)
        }
    }
}
