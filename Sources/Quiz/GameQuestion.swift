/// A question as a game holds it: a copy taken when the game was created, so a game is decided
/// and shown from its own events alone, whatever happens to the bank later.
public struct GameQuestion: Codable, Sendable, Equatable {
    /// The bank question it was copied from.
    public var questionId: String
    /// The question.
    public var text: String
    /// The answers in the bank's order.
    public var answers: [String]
    /// The right one, one of `answers`. Never shown before the player answered it.
    public var correctAnswer: String

    /// A copy of bank question `questionId`.
    public init(questionId: String, text: String, answers: [String], correctAnswer: String) {
        self.questionId = questionId
        self.text = text
        self.answers = answers
        self.correctAnswer = correctAnswer
    }
}
