import Quiz

/// A bank question as the questions read model keeps it, for drawing a game's questions.
public struct StoredQuestion: Sendable, Equatable {
    /// The question's id.
    public var questionId: String
    /// The question.
    public var text: String
    /// The answers in the bank's order.
    public var answers: [String]
    /// The right one.
    public var correctAnswer: String
    /// Its category, if any.
    public var category: String?

    /// The question as a game copies it.
    public var gameQuestion: GameQuestion {
        GameQuestion(questionId: questionId, text: text, answers: answers, correctAnswer: correctAnswer)
    }
}

extension StoredQuestion: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(questionId)
        writer.write(text)
        writer.write(answers)
        writer.write(correctAnswer)
        writer.write(category)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        questionId = try reader.read()
        text = try reader.read()
        answers = try reader.read()
        correctAnswer = try reader.read()
        category = try reader.read()
    }
}
