import Foundation

/// A chat message of a group.
public struct MessageView: Sendable, Equatable, Codable {
    /// The message's id.
    public var messageId: String
    /// Its text.
    public var text: String
    /// The member who wrote it.
    public var authorId: String
    /// Their display name when they wrote it.
    public var authorName: String
    /// When it was posted.
    public var postedAt: Date
}

extension MessageView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(messageId)
        writer.write(text)
        writer.write(authorId)
        writer.write(authorName)
        writer.write(postedAt)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        messageId = try reader.read()
        text = try reader.read()
        authorId = try reader.read()
        authorName = try reader.read()
        postedAt = try reader.read()
    }
}
