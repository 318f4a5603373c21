import EventSourcing

/// The quiz rules: a question bank without duplicates, and two-player games answered in order.
public enum QuizDecider: Decider {
    /// What operators and players ask.
    public typealias Command = QuizCommand
    /// What happened.
    public typealias Event = QuizEvent
    /// The questions and games of the boundary.
    public typealias State = QuizState
    /// Why a command is refused.
    public typealias Failure = QuizError

    /// Nothing yet.
    public static let initialState = QuizState()

    /// A new question: its id and every question with the same text key. A game command: the game.
    public static func boundary(of command: QuizCommand) -> Boundary {
        switch command {
        case .addQuestion(let q):
            Boundary.tag(QuizEvent.questionTag(q.questionId)).union(.tag(QuizEvent.questionTextTag(q.text)))
        case .createGame(let game):
            .tag(QuizEvent.gameTag(game.gameId))
        case .answer(let gameId, _, _), .markResultSeen(let gameId):
            .tag(QuizEvent.gameTag(gameId))
        }
    }

    /// The state changed in place by `event`.
    public static func evolve(_ state: inout QuizState, _ event: QuizEvent) {
        state.apply(event)
    }

    /// The events `command` produces, none when it changes nothing, or the refusal.
    public static func decide(_ command: QuizCommand, state: QuizState, metadata: CommandMetadata) throws(QuizError) -> [QuizEvent] {
        switch command {
        case .addQuestion(let question):
            try addQuestion(question, state: state)
        case .createGame(let game):
            try createGame(game, state: state, metadata: metadata)
        case let .answer(gameId, index, answer):
            try answerQuestion(gameId, index: index, answer: answer, state: state, metadata: metadata)
        case .markResultSeen(let gameId):
            try markResultSeen(gameId, state: state, actor: metadata.actor)
        }
    }
}
