import EventLog
import EventSourcing
import Quiz

/// The question bank numbered in the order questions were added (`questions`, keyed by the
/// zero-padded number) with its size (`size`): drawing a random question is one key lookup.
public struct QuizQuestionsProjection: Projection {
    /// The stable name.
    public var name: String { "quiz.questions" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// Its domain's events as stored (a question holds no personal data; every quiz projection
    /// reads them so, so a batch decodes each once).
    public var reads: [any DecodableDomainEvent.Type]? { [EventAsStored<QuizEvent>.self] }
    /// `questions`: number → question; `size`: `count` → number of questions.
    public var tables: [String] { [Self.questions, Self.size] }

    static let questions = "questions"
    static let size = "size"
    static let countKey = "count"

    /// A projection value; it holds no state.
    public init() {}

    /// Numbers each added question; ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard case .questionAdded(let p) = try event.decoded(as: EventAsStored<QuizEvent>.self)?.event else { return }
        let count = try model.value(Int.self, at: Self.countKey, in: Self.size) ?? 0
        let question = StoredQuestion(questionId: p.questionId, text: p.text, answers: p.answers, correctAnswer: p.correctAnswer, category: p.category)
        try model.put(question, at: ReadModelKeys.padded(UInt64(count)), in: Self.questions)
        try model.put(count + 1, at: Self.countKey, in: Self.size)
    }
}
