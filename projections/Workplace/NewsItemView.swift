import Foundation

/// A live news item; deleted items are removed, not marked.
public struct NewsItemView: Sendable, Equatable, Codable {
    /// The item's id.
    public var newsId: String
    /// The location it was posted to.
    public var locationId: String
    /// Its title.
    public var title: String
    /// Its text.
    public var text: String
    /// An attached image blob, if any.
    public var imageBlobId: String?
    /// When it was posted.
    public var postedAt: Date
    /// The admin who posted it, with their member name at the time.
    public var author: WorkplacePerson
    /// The log position of `newsPosted`: its key in both newest-first lists, so a deletion
    /// finds them.
    var position: UInt64
}

extension NewsItemView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(newsId)
        writer.write(locationId)
        writer.write(title)
        writer.write(text)
        writer.write(imageBlobId)
        writer.write(postedAt)
        writer.write(author)
        writer.write(position)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        newsId = try reader.read()
        locationId = try reader.read()
        title = try reader.read()
        text = try reader.read()
        imageBlobId = try reader.read()
        postedAt = try reader.read()
        author = try reader.read()
        position = try reader.read()
    }
}
