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
    public var eventPayload: any EventPayload<QuizEvent> {
        switch self {
        case .questionAdded(let p): p
        case .gameCreated(let p): p
        case .answerGiven(let p): p
        case .gameFinished(let p): p
        case .resultSeen(let p): p
        }
    }

    /// `question:<id>`.
    public static func questionTag(_ questionId: String) -> String { "question:\(questionId)" }
    /// `question-text:<key>`, the key of `QuestionText.key`.
    public static func questionTextTag(_ text: String) -> String { "question-text:\(QuestionText.key(text))" }
    /// `game:<id>`.
    public static func gameTag(_ gameId: String) -> String { "game:\(gameId)" }
    /// `user:<id>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }
}

/// What every event of a game says: its game, whose stream it is in and whose tag it carries.
public protocol QuizGamePayload: EventPayload<QuizEvent> {
    /// The game.
    var gameId: String { get }
}

extension QuizGamePayload {
    /// `game-<gameId>`.
    public var streamID: String { "game-\(gameId)" }
    /// `game:<gameId>`.
    public var tags: [String] { [QuizEvent.gameTag(gameId)] }
}
