/// A user as the neighbourhood shows one: authors, repliers, the sender of a notification.
public struct NeighbourView: Sendable, Equatable, Codable {
    /// The user's id.
    public var userId: String
    /// Their display name when they wrote what it is shown with.
    public var displayName: String
}

extension NeighbourView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(displayName)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        displayName = try reader.read()
    }
}
