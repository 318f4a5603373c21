import EventSourcing
import Foundation

/// What happened to an image blob: the storage format of the blobs domain. The bytes live in the
/// blob store beside the log (`data/blobs/`, content-addressed); the log records who stored
/// what, so that audit sees every upload and a blob's uploader can always be told.
///
/// Every event is in the stream `blob-<blobId>` and tagged `blob:<blobId>` and `user:<uploaderId>`.
public enum BlobEvent: CataloguedEvent {
    /// Every stored type name starts `blob.`.
    public static let domain = "blob"

    /// A user stored an image; the same bytes uploaded again by another user is another event.
    case uploaded(Uploaded)

    /// Every payload type, for decoding by stored type name.
    public static let catalogue = EventPayloadCatalogue<BlobEvent>([Uploaded.self])

    /// The stream of a blob, `blob-<blobId>`.
    public static func streamID(blob blobId: String) -> String { "blob-\(blobId)" }
    /// The tag every event about a blob carries, `blob:<blobId>`.
    public static func blobTag(_ blobId: String) -> String { "blob:\(blobId)" }
    /// The tag of the user an event is about, `user:<userId>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// The case's payload: the one switch over the cases, as only a macro could derive it (swift-syntax's build breaks the 10-minute first build).
    public var eventPayload: any EventPayload<BlobEvent> {
        switch self {
        case .uploaded(let p): p
        }
    }
}

/// What every blob payload says: its blob, whose stream it is in.
public protocol BlobPayload: EventPayload<BlobEvent> {
    /// The blob the event is about.
    var blobId: String { get }
}

extension BlobPayload {
    /// `blob-<blobId>`.
    public var streamID: String { BlobEvent.streamID(blob: blobId) }
}

extension BlobEvent {
    /// `blob.uploaded`: `uploaderId` stored `bytes` bytes of `contentType` under `blobId`.
    public struct Uploaded: BlobPayload {
        public static let typeName = "blob.uploaded"
        public var event: BlobEvent { .uploaded(self) }
        public var tags: [String] { [BlobEvent.blobTag(blobId), BlobEvent.userTag(uploaderId)] }

        /// The lowercase hex SHA-256 of the bytes.
        public var blobId: String
        /// The sniffed type's media type (`ImageType.rawValue`), never the client's header.
        public var contentType: String
        /// The size.
        public var bytes: Int
        /// Who uploaded it.
        public var uploaderId: String
        /// When: the command's metadata time.
        public var uploadedAt: Date

        /// `uploaderId` stored `blobId`.
        public init(blobId: String, contentType: String, bytes: Int, uploaderId: String, uploadedAt: Date) {
            self.blobId = blobId
            self.contentType = contentType
            self.bytes = bytes
            self.uploaderId = uploaderId
            self.uploadedAt = uploadedAt
        }
    }
}
