import EventSourcing

extension FieldChecks {
    /// The answers as sent, checked against `questions` and returned in the questions' order
    /// with each question's text and kind: exactly one answer per question (a missing, repeated
    /// or unknown question id is a problem on `answers`), each setting exactly the value its
    /// question's kind asks for (`answers[2].rating` from 1 to 5, `answers[0].yes`, a text of
    /// `WorkplaceLimits.answerTextCharacters`).
    mutating func answers(
        _ inputs: [WorkplaceCommand.AnswerInput], to questions: [WorkplaceEvent.Question]
    ) -> [WorkplaceEvent.Answer] {
        let questionsById = Dictionary(questions.map { ($0.questionId, $0) }, uniquingKeysWith: { first, _ in first })
        var answersById: [String: WorkplaceEvent.Answer] = [:]
        for (index, input) in inputs.enumerated() {
            guard let question = questionsById[input.questionId] else {
                fail("answers", "answers[\(index)] names \(input.questionId), which is no question of the form")
                continue
            }
            guard answersById[input.questionId] == nil else {
                fail("answers", "answers[\(index)] answers question \(input.questionId) a second time")
                continue
            }
            answersById[input.questionId] = answer(input, to: question, field: "answers[\(index)]")
        }
        for question in questions where answersById[question.questionId] == nil {
            fail("answers", "has no answer to question \(question.questionId)")
        }
        return questions.compactMap { answersById[$0.questionId] }
    }

    /// One answer to `question`: the one value its kind asks for, and no other.
    private mutating func answer(
        _ input: WorkplaceCommand.AnswerInput, to question: WorkplaceEvent.Question, field: String
    ) -> WorkplaceEvent.Answer {
        var answer = WorkplaceEvent.Answer(questionId: question.questionId, question: question.text, kind: question.kind)
        let given = [input.rating.map { _ in "rating" }, input.yes.map { _ in "yes" }, input.text.map { _ in "text" }]
            .compactMap { $0 }
        let wanted = question.kind.answerField
        guard given == [wanted] else {
            if given.count > 1 {
                fail(field, "must set only \(wanted), the answer to a \(question.kind.rawValue) question, not \(given.joined(separator: " and "))")
            } else {
                fail("\(field).\(wanted)", "must be given for a \(question.kind.rawValue) question"
                        + (given.first.map { ", instead of \($0)" } ?? ""))
            }
            return answer
        }
        switch question.kind {
        case .rating:
            let rating = input.rating ?? 0
            number(rating, in: WorkplaceLimits.rating, field: "\(field).rating")
            answer.rating = rating
        case .yesNo:
            answer.yes = input.yes
        case .text:
            answer.text = text(input.text ?? "", in: WorkplaceLimits.answerTextCharacters, field: "\(field).text", kind: .multiLine)
        }
        return answer
    }
}

extension QuestionKind {
    /// The answer's field this kind asks for: `rating`, `yes` or `text`.
    public var answerField: String {
        switch self {
        case .rating: "rating"
        case .yesNo: "yes"
        case .text: "text"
        }
    }
}
