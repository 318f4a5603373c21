import Quiz

/// Stored inside a game's setup. The fields are read into the public initialiser, as another
/// module's type can only be built through one.
extension GameQuestion: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(questionId)
        writer.write(text)
        writer.write(answers)
        writer.write(correctAnswer)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        try self.init(questionId: reader.read(), text: reader.read(), answers: reader.read(), correctAnswer: reader.read())
    }
}
