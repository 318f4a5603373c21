import Quiz

/// Stored inside a game's setup. The fields are read into the public initialiser, as another
/// module's type can only be built through one.
extension QuizPlayer: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(username)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        try self.init(userId: reader.read(), username: reader.read())
    }
}
