import Workplace

/// A live review form; deleted forms are removed, not marked.
public struct ReviewFormView: Sendable, Equatable, Codable {
    /// The form's id.
    public var formId: String
    /// Its current name.
    public var name: String
    /// Its questions in their current order.
    public var questions: [ReviewFormQuestion]
}

/// A question of a review form.
public struct ReviewFormQuestion: Sendable, Equatable, Codable {
    /// The question's id.
    public var questionId: String
    /// What it asks.
    public var text: String
    /// What the answer must be.
    public var kind: QuestionKind
}

/// As its raw value, the log's spelling: the default for string enums.
extension QuestionKind: ReadModelValue {}

extension ReviewFormView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(formId)
        writer.write(name)
        writer.write(questions)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        formId = try reader.read()
        name = try reader.read()
        questions = try reader.read()
    }
}

extension ReviewFormQuestion: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(questionId)
        writer.write(text)
        writer.write(kind)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        questionId = try reader.read()
        text = try reader.read()
        kind = try reader.read()
    }
}
