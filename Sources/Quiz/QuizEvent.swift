import EventSourcing
import Foundation

/// What happened in the quiz: the storage format of the quiz domain. Payloads are written to
/// the log as JSON and never rewritten, so change them only by adding a schema version.
///
/// Bank questions are in `question-<id>`, tagged `question:<id>` and `question-text:<key>` (the
/// boundary that keeps texts unique). Game events are in `game-<id>`, tagged `game:<id>`;
/// `gameCreated` also carries each player's `user:<id>`, so an audit by user finds their games.
public enum QuizEvent: CataloguedEvent {
    /// Every stored type name starts `quiz.`.
    public static let domain = "quiz"

    /// A question joined the bank.
    case questionAdded(QuestionAdded)
    /// A game started between two players on its questions.
    case gameCreated(GameCreated)
    /// A player answered the next question of a game.
    case answerGiven(AnswerGiven)
    /// Both players answered every question: the scores and outcomes.
    case gameFinished(GameFinished)
    /// A player acknowledged a finished game's result.
    case resultSeen(ResultSeen)

    /// Every payload type, for decoding by stored type name.
    public static let catalogue = EventPayloadCatalogue<QuizEvent>([
        QuestionAdded.self, GameCreated.self, AnswerGiven.self, GameFinished.self, ResultSeen.self,
    ])

    /// The case's payload: the one switch over the cases, as only a macro could derive it (swift-syntax's build breaks the 10-minute first build).
    public var payload: any QuizPayload {
        switch self {
        case .questionAdded(let p): p
        case .gameCreated(let p): p
        case .answerGiven(let p): p
        case .gameFinished(let p): p
        case .resultSeen(let p): p
        }
    }

    /// The case's payload, for the type name, the version and the JSON.
    public var eventPayload: any EventPayload<QuizEvent> { payload.asEventPayload }

    /// `question:<id>`.
    public static func questionTag(_ questionId: String) -> String { "question:\(questionId)" }
    /// `question-text:<key>`, the key of `QuestionText.key`.
    public static func questionTextTag(_ text: String) -> String { "question-text:\(QuestionText.key(text))" }
    /// `game:<id>`.
    public static func gameTag(_ gameId: String) -> String { "game:\(gameId)" }
    /// `user:<id>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// `question-<id>` or `game-<id>`.
    public var streamID: String { payload.streamID }

    /// See the type's comment.
    public var tags: [String] { payload.tags }
}

/// What every quiz payload says: its stream and tags, a bank question's or a game's.
public protocol QuizPayload: EventPayload<QuizEvent> {
    /// The event's stream.
    var streamID: String { get }
    /// The event's tags.
    var tags: [String] { get }
}

/// What every event of a game says: its game.
public protocol QuizGamePayload: QuizPayload {
    /// The game.
    var gameId: String { get }
}

extension QuizGamePayload {
    /// `game-<gameId>`.
    public var streamID: String { "game-\(gameId)" }
    /// `game:<gameId>`.
    public var tags: [String] { [QuizEvent.gameTag(gameId)] }
}
