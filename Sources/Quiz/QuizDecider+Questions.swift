import EventSourcing
import Foundation

extension QuizDecider {
    /// Checks every field at once, then refuses a text the bank already has.
    static func addQuestion(_ q: QuizCommand.NewQuestion, state: QuizState) throws(QuizError) -> [QuizEvent] {
        let question = try checked(q)
        guard state.questionTexts[q.questionId] == nil else { throw .idTaken }
        let normalised = QuestionText.normalised(question.text)
        // The boundary holds every question sharing the text's key; equal keys with different
        // texts (a hash collision) are different questions.
        guard !state.questionTexts.values.contains(normalised) else { throw .questionExists }
        return [.questionAdded(question)]
    }

    /// The question trimmed, or every problem with it.
    static func checked(_ q: QuizCommand.NewQuestion) throws(QuizError) -> QuizEvent.QuestionAdded {
        var checks = FieldChecks()
        let text = checks.text(q.text, in: QuizLimits.questionTextCharacters, field: "text")
        let answers = q.answers.enumerated().map { checks.text($1, in: QuizLimits.answerCharacters, field: "answers[\($0)]") }
        let counts = QuizLimits.answersPerQuestion
        if !counts.contains(answers.count) {
            checks.fail("answers", "must hold \(counts.lowerBound) to \(counts.upperBound) answers")
        }
        if Set(answers.map { $0.lowercased() }).count != answers.count {
            checks.fail("answers", "must be distinct, ignoring case")
        }
        let correct = q.correctAnswer.trimmingCharacters(in: .whitespacesAndNewlines)
        if !answers.contains(correct) {
            checks.fail("correctAnswer", "must be one of the answers, exactly")
        }
        let category = q.category.flatMap { raw -> String? in
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : checks.text(value, in: QuizLimits.categoryCharacters, field: "category")
        }
        try checks.check(QuizError.validationFailed)
        return QuizEvent.QuestionAdded(questionId: q.questionId, text: text, answers: answers, correctAnswer: correct, category: category)
    }
}
