import EventSourcing
import Foundation

/// What happened in the quiz: the storage format of the quiz domain. Payloads are written to
/// the log as JSON and never rewritten, so change them only by adding a schema version.
///
/// Bank questions are in `question-<id>`, tagged `question:<id>` and `question-text:<key>` (the
/// boundary that keeps texts unique). Game events are in `game-<id>`, tagged `game:<id>`;
/// `gameCreated` also carries each player's `user:<id>`, so an audit by user finds their games.
public enum QuizEvent: DomainEvent {
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

    /// The stored type names, `quiz.<pastTense>`.
    public enum EventType: String, CaseIterable, Sendable {
        /// `quiz.questionAdded`
        case questionAdded = "quiz.questionAdded"
        /// `quiz.gameCreated`
        case gameCreated = "quiz.gameCreated"
        /// `quiz.answerGiven`
        case answerGiven = "quiz.answerGiven"
        /// `quiz.gameFinished`
        case gameFinished = "quiz.gameFinished"
        /// `quiz.resultSeen`
        case resultSeen = "quiz.resultSeen"
    }

    /// `question:<id>`.
    public static func questionTag(_ questionId: String) -> String { "question:\(questionId)" }
    /// `question-text:<key>`, the key of `QuestionText.key`.
    public static func questionTextTag(_ text: String) -> String { "question-text:\(QuestionText.key(text))" }
    /// `game:<id>`.
    public static func gameTag(_ gameId: String) -> String { "game:\(gameId)" }
    /// `user:<id>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// Which kind of event this is.
    public var eventType: EventType {
        switch self {
        case .questionAdded: .questionAdded
        case .gameCreated: .gameCreated
        case .answerGiven: .answerGiven
        case .gameFinished: .gameFinished
        case .resultSeen: .resultSeen
        }
    }

    /// `quiz.<pastTense>`.
    public var typeName: String { eventType.rawValue }

    /// `question-<id>` or `game-<id>`.
    public var streamID: String {
        switch self {
        case .questionAdded(let p): "question-\(p.questionId)"
        case .gameCreated(let p): "game-\(p.gameId)"
        case .answerGiven(let p): "game-\(p.gameId)"
        case .gameFinished(let p): "game-\(p.gameId)"
        case .resultSeen(let p): "game-\(p.gameId)"
        }
    }

    /// See the type's comment.
    public var tags: [String] {
        switch self {
        case .questionAdded(let p): [Self.questionTag(p.questionId), Self.questionTextTag(p.text)]
        case .gameCreated(let p): [Self.gameTag(p.gameId)] + p.players.map { Self.userTag($0.userId) }
        case .answerGiven(let p): [Self.gameTag(p.gameId)]
        case .gameFinished(let p): [Self.gameTag(p.gameId)]
        case .resultSeen(let p): [Self.gameTag(p.gameId)]
        }
    }

    /// The payload as JSON (sorted keys, RFC 3339 dates).
    public func encodeData() throws -> Data {
        switch self {
        case .questionAdded(let p): try EventJSON.encode(p)
        case .gameCreated(let p): try EventJSON.encode(p)
        case .answerGiven(let p): try EventJSON.encode(p)
        case .gameFinished(let p): try EventJSON.encode(p)
        case .resultSeen(let p): try EventJSON.encode(p)
        }
    }

    /// The event stored as `typeName`, or nil for another domain's type. Every type is at schema
    /// version 1 so far; a version 2 would be upcast here, keyed on `schemaVersion`.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data) throws -> QuizEvent? {
        guard let type = EventType(rawValue: typeName) else { return nil }
        switch type {
        case .questionAdded: return .questionAdded(try EventJSON.decode(QuestionAdded.self, from: data))
        case .gameCreated: return .gameCreated(try EventJSON.decode(GameCreated.self, from: data))
        case .answerGiven: return .answerGiven(try EventJSON.decode(AnswerGiven.self, from: data))
        case .gameFinished: return .gameFinished(try EventJSON.decode(GameFinished.self, from: data))
        case .resultSeen: return .resultSeen(try EventJSON.decode(ResultSeen.self, from: data))
        }
    }
}
