import EventSourcing

/// Every way the quiz decider refuses a command. Codes are stable: clients switch on them.
public enum QuizError: DomainError {
    /// Input out of range; the field errors say which.
    case validationFailed([FieldError])
    /// The bank already holds a question with this text (ignoring case and spacing).
    case questionExists
    /// A new question or game id is already in use.
    case idTaken
    /// The command names a user other than the actor.
    case actorMismatch
    /// The quiz needs a username, and the actor's account has none.
    case usernameRequired
    /// There is nobody with a username to play against.
    case noOpponent
    /// The opponent named is the actor.
    case cannotChallengeYourself
    /// The bank has fewer questions than a game needs.
    case notEnoughQuestions(available: Int)
    /// No such game, or the actor is not one of its players: outsiders learn nothing.
    case gameNotFound
    /// The answer is not one of the question's options.
    case notAnOption
    /// The question at this index was already answered by the actor.
    case alreadyAnswered
    /// An earlier question is still unanswered: questions are answered in order.
    case outOfOrder(expected: Int)
    /// The actor has answered every question of this game.
    case allAnswered
    /// The game is still running: there is no result to acknowledge yet.
    case gameNotFinished

    /// Stable snake_case code for clients.
    public var code: String {
        switch self {
        case .validationFailed: "validation_failed"
        case .questionExists: "question_exists"
        case .idTaken: "id_taken"
        case .actorMismatch: "actor_mismatch"
        case .usernameRequired: "username_required"
        case .noOpponent: "no_opponent"
        case .cannotChallengeYourself: "cannot_challenge_yourself"
        case .notEnoughQuestions: "not_enough_questions"
        case .gameNotFound: "game_not_found"
        case .notAnOption: "not_an_option"
        case .alreadyAnswered: "already_answered"
        case .outOfOrder: "out_of_order"
        case .allAnswered: "all_answered"
        case .gameNotFinished: "game_not_finished"
        }
    }

    /// The HTTP-independent kind.
    public var kind: DomainErrorKind {
        switch self {
        case .validationFailed, .cannotChallengeYourself, .notAnOption: .validation
        case .gameNotFound: .notFound
        case .actorMismatch: .forbidden
        case .questionExists, .idTaken, .usernameRequired, .noOpponent, .notEnoughQuestions, .alreadyAnswered,
             .outOfOrder, .allAnswered, .gameNotFinished: .conflict
        }
    }

    /// A sentence for a person.
    public var detail: String {
        switch self {
        case .validationFailed: "Some fields are invalid."
        case .questionExists: "The question bank already has this question."
        case .idTaken: "This id is already in use."
        case .actorMismatch: "You can only start a game as yourself."
        case .usernameRequired: "The quiz needs a username; set one on your profile first."
        case .noOpponent: "There is nobody to play against yet."
        case .cannotChallengeYourself: "You cannot play against yourself."
        case .notEnoughQuestions(let available):
            "The question bank has \(available) questions; a game needs \(QuizLimits.questionsPerGame)."
        case .gameNotFound: "There is no such game."
        case .notAnOption: "This answer is not one of the question's options."
        case .alreadyAnswered: "You already answered this question."
        case .outOfOrder(let expected): "Questions are answered in order; the next one is question \(expected)."
        case .allAnswered: "You have answered every question of this game."
        case .gameNotFinished: "The game is not over yet."
        }
    }

    /// Per-field problems.
    public var fieldErrors: [FieldError] {
        switch self {
        case .validationFailed(let errors): errors
        case .notAnOption: [FieldError("answer", "must be one of the question's answers")]
        case .cannotChallengeYourself: [FieldError("opponentUsername", "must be someone else's username")]
        default: []
        }
    }
}
