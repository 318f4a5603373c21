import EventSourcing
import Foundation
import Testing
@testable import Quiz

/// Question texts, answers and categories follow the one text policy (`TextKind.singleLine`):
/// a control character or a bidi override is refused, naming the field.
@Suite("Quiz question text policy")
struct QuestionTextPolicyTests {
    typealias D = QuizDecider
    let op = CommandMetadata(actor: "operator", now: Fixture.now, commandID: UUID())
    static let problem = "must not contain control characters or line breaks"
    /// NUL, ESC, BEL, the right-to-left override, and a line break.
    static let badScalars = ["\u{0}", "\u{1B}", "\u{7}", "\u{202E}", "\n"]

    private func add(text: String = "Capital of France?", answers: [String] = ["Paris", "Lyon"], correct: String = "Paris",
                     category: String? = "geography") -> QuizCommand {
        .addQuestion(.init(questionId: "q1", text: text, answers: answers, correctAnswer: correct, category: category))
    }

    @Test(arguments: badScalars)
    func aQuestionTextWithAControlCharacterIsRefused(bad: String) {
        #expect(D.given([]).when(add(text: "Capital\(bad) of France?"), op).failure == .validationFailed([FieldError("text", Self.problem)]))
    }

    @Test(arguments: badScalars)
    func anAnswerWithAControlCharacterIsRefused(bad: String) {
        let answers = ["Par\(bad)is", "Lyon"]
        #expect(D.given([]).when(add(answers: answers, correct: answers[0]), op).failure
            == .validationFailed([FieldError("answers[0]", Self.problem)]))
    }

    @Test(arguments: badScalars)
    func aCategoryWithAControlCharacterIsRefused(bad: String) {
        #expect(D.given([]).when(add(category: "geo\(bad)graphy"), op).failure == .validationFailed([FieldError("category", Self.problem)]))
    }
}
