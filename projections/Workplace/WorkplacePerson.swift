/// A member as a review or a news item shows them: their id and their member name at the time.
public struct WorkplacePerson: Sendable, Equatable, Codable {
    /// The user's id.
    public var userId: String
    /// Their member name when they wrote what it is shown with.
    public var name: String
}

extension WorkplacePerson: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(name)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        name = try reader.read()
    }
}
