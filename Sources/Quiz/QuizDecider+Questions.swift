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
        var errors: [FieldError] = []
        func trimmed(_ raw: String, _ field: String, _ bounds: ClosedRange<Int>) -> String {
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if !bounds.contains(value.count) {
                errors.append(FieldError(field, "must be \(bounds.lowerBound) to \(bounds.upperBound) characters"))
            }
            return value
        }
        let text = trimmed(q.text, "text", QuizLimits.questionTextCharacters)
        let answers = q.answers.enumerated().map { trimmed($1, "answers[\($0)]", QuizLimits.answerCharacters) }
        let counts = QuizLimits.answersPerQuestion
        if !counts.contains(answers.count) {
            errors.append(FieldError("answers", "must hold \(counts.lowerBound) to \(counts.upperBound) answers"))
        }
        if Set(answers.map { $0.lowercased() }).count != answers.count {
            errors.append(FieldError("answers", "must be distinct, ignoring case"))
        }
        let correct = q.correctAnswer.trimmingCharacters(in: .whitespacesAndNewlines)
        if !answers.contains(correct) {
            errors.append(FieldError("correctAnswer", "must be one of the answers, exactly"))
        }
        let category = q.category.flatMap { raw -> String? in
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : trimmed(value, "category", QuizLimits.categoryCharacters)
        }
        guard errors.isEmpty else { throw .validationFailed(errors) }
        return QuizEvent.QuestionAdded(questionId: q.questionId, text: text, answers: answers, correctAnswer: correct, category: category)
    }
}
