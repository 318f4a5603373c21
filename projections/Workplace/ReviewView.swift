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

extension ReviewView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(reviewId)
        writer.write(employeeId)
        writer.write(formId)
        writer.write(formName)
        writer.write(reviewer)
        writer.write(submittedAt)
        writer.write(answers)
        writer.write(remark)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        reviewId = try reader.read()
        employeeId = try reader.read()
        formId = try reader.read()
        formName = try reader.read()
        reviewer = try reader.read()
        submittedAt = try reader.read()
        answers = try reader.read()
        remark = try reader.read()
    }
}

extension ReviewAnswerView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(questionId)
        writer.write(question)
        writer.write(kind)
        writer.write(value)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        questionId = try reader.read()
        question = try reader.read()
        kind = try reader.read()
        value = try reader.read()
    }
}

extension ReviewAnswerValue: ReadModelValue {
    /// A tag (0 rating, 1 yes, 2 text), then the value.
    public func encode(to writer: inout ValueWriter) {
        switch self {
        case let .rating(rating):
            writer.writeVarint(0)
            writer.write(rating)
        case let .yes(yes):
            writer.writeVarint(1)
            writer.write(yes)
        case let .text(text):
            writer.writeVarint(2)
            writer.write(text)
        }
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        switch try reader.readVarint() {
        case 0: self = .rating(try reader.read())
        case 1: self = .yes(try reader.read())
        case 2: self = .text(try reader.read())
        case let tag: throw .invalid("answer tag \(tag)")
        }
    }
}
