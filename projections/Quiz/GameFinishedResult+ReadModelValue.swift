import Quiz

/// `QuizEvent.GameFinished.Result`, stored inside a game's progress. The fields are read into
/// the public initialiser, as another module's type can only be built through one.
extension QuizEvent.GameFinished.Result: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(points)
        writer.write(outcome)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        try self.init(userId: reader.read(), points: reader.read(), outcome: reader.read())
    }
}
