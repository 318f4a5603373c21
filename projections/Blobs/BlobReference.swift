/// A live entity that references a blob: while one does, the blob is not collected, and who
/// may see the entity may see the blob.
public enum BlobReference: Sendable, Hashable, Codable {
    /// A live photo of a group.
    case photo(groupId: String, photoId: String)
    /// A user's current avatar.
    case avatar(userId: String)
    /// A live workplace news item's image.
    case news(organisationId: String, newsId: String, locationId: String)
}

extension BlobReference: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        switch self {
        case let .photo(groupId, photoId):
            writer.writeVarint(0)
            writer.write(groupId)
            writer.write(photoId)
        case let .avatar(userId):
            writer.writeVarint(1)
            writer.write(userId)
        case let .news(organisationId, newsId, locationId):
            writer.writeVarint(2)
            writer.write(organisationId)
            writer.write(newsId)
            writer.write(locationId)
        }
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        switch try reader.readVarint() {
        case 0: self = .photo(groupId: try reader.read(), photoId: try reader.read())
        case 1: self = .avatar(userId: try reader.read())
        case 2: self = .news(organisationId: try reader.read(), newsId: try reader.read(), locationId: try reader.read())
        case let tag: throw .invalid("BlobReference tag \(tag)")
        }
    }
}

/// A reference as stored: with its blob's id, so that listing every referenced blob needs no
/// parsing of escaped keys.
struct StoredBlobReference: Sendable, Equatable {
    var blobId: String
    var reference: BlobReference
}

extension StoredBlobReference: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(blobId)
        writer.write(reference)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        blobId = try reader.read()
        reference = try reader.read()
    }
}
