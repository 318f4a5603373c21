import Foundation

/// What the log says of a blob's uploads: its type and size, and every user who uploaded it.
public struct BlobUploadView: Sendable, Equatable, Codable {
    /// The lowercase hex SHA-256 of the bytes.
    public var blobId: String
    /// The sniffed media type.
    public var contentType: String
    /// The size.
    public var bytes: Int
    /// Every user who uploaded these bytes, ordered by id.
    public var uploaderIds: [String]
    /// When they were first uploaded.
    public var firstUploadedAt: Date
}

/// A blob's own row, written by its first upload; uploaders are rows of their own, so that a
/// popular image's hundredth upload does not rewrite a list of ninety-nine.
struct StoredUpload: Sendable, Equatable {
    var contentType: String
    var bytes: Int
    var firstUploadedAt: Date
}

extension StoredUpload: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(contentType)
        writer.write(bytes)
        writer.write(firstUploadedAt)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        contentType = try reader.read()
        bytes = try reader.read()
        firstUploadedAt = try reader.read()
    }
}
