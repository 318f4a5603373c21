import Foundation
import Workplace

/// A submitted review, as it was submitted: the form's name and every question as they were
/// then, so later form edits and deletions never change it.
public struct ReviewView: Sendable, Equatable, Codable {
    /// The review's id.
    public var reviewId: String
    /// The reviewed member.
    public var employeeId: String
    /// The form used (it may have been deleted since).
    public var formId: String
    /// The form's name at the time.
    public var formName: String
    /// The admin who reviewed, with their member name at the time.
    public var reviewer: WorkplacePerson
    /// When.
    public var submittedAt: Date
    /// One per question of the form at the time, in its order then.
    public var answers: [ReviewAnswerView]
    /// The reviewer's remark, if any.
    public var remark: String?
}

/// One answer of a review with its question as it was.
public struct ReviewAnswerView: Sendable, Equatable, Codable {
    /// The question's id in the form at the time.
    public var questionId: String
    /// The question's text at the time.
    public var question: String
    /// The question's kind at the time.
    public var kind: QuestionKind
    /// The answer.
    public var value: ReviewAnswerValue
}

/// An answer's value, of the kind its question asked for.
public enum ReviewAnswerValue: Sendable, Equatable, Codable {
    /// 1–5, for a `rating` question.
    case rating(Int)
    /// For a `yesNo` question.
    case yes(Bool)
    /// For a `text` question; empty once the reviewed employee is erased.
    case text(String)
}

extension ReviewAnswerView {
    /// The answer as the event carries it. The decider sets exactly the field `kind` asks for;
    /// the fields are read in that order so a stored answer is always shown as something.
    init(_ answer: WorkplaceEvent.Answer) {
        let value: ReviewAnswerValue =
            if let rating = answer.rating { .rating(rating) } else if let yes = answer.yes { .yes(yes) } else { .text(answer.text ?? "") }
        self.init(questionId: answer.questionId, question: answer.question, kind: answer.kind, value: value)
    }
}

extension ReviewView {
    /// The review as its event says.
    init(_ p: WorkplaceEvent.ReviewSubmitted) {
        self.init(
            reviewId: p.reviewId, employeeId: p.employeeId, formId: p.formId, formName: p.formName,
            reviewer: WorkplacePerson(userId: p.reviewerId, name: p.reviewerName), submittedAt: p.submittedAt,
            answers: p.answers.map(ReviewAnswerView.init), remark: p.remark)
    }
}

/// Where a review is: the read models keep this, and the review is read from the log when asked.
/// The employee is kept too, so that who may read it is known without reading the log.
public struct ReviewLocator: Sendable, Equatable {
    /// The review's event's position in the log.
    public var position: UInt64
    /// The reviewed member.
    public var employeeId: String
}

extension ReviewLocator: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(position)
        writer.write(employeeId)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        position = try reader.read()
        employeeId = try reader.read()
    }
}
