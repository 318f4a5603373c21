import Foundation

/// A live photo of a group; deleted photos are removed, not marked.
public struct PhotoView: Sendable, Equatable, Codable {
    /// The photo's id.
    public var photoId: String
    /// Its image blob.
    public var blobId: String
    /// Its description.
    public var description: String
    /// The member who added it, its owner.
    public var addedBy: String
    /// Their display name when they added it.
    public var addedByName: String
    /// When it was added.
    public var addedAt: Date
    /// The log position of `photoAdded`: its key in the newest-first list, so a deletion finds it.
    var position: UInt64
}

extension PhotoView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(photoId)
        writer.write(blobId)
        writer.write(description)
        writer.write(addedBy)
        writer.write(addedByName)
        writer.write(addedAt)
        writer.write(position)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        photoId = try reader.read()
        blobId = try reader.read()
        description = try reader.read()
        addedBy = try reader.read()
        addedByName = try reader.read()
        addedAt = try reader.read()
        position = try reader.read()
    }
}
