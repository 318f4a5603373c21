import EventSourcing

/// The blobs rules: one `blob.uploaded` per blob and uploader. The store has already written
/// the bytes under their hash; recording the upload again for the same uploader adds nothing,
/// while another user's upload of the same bytes is their own event (it makes them an
/// uploader, who may then read and use the blob).
public enum BlobDecider: Decider {
    /// What the API asks.
    public typealias Command = BlobCommand
    /// What happened.
    public typealias Event = BlobEvent
    /// The users who recorded the blob.
    public typealias State = Set<String>
    /// Why a command is refused.
    public typealias Failure = BlobError

    /// Nobody uploaded it yet.
    public static let initialState: Set<String> = []

    /// Every event about the blob.
    public static func boundary(of command: BlobCommand) -> Boundary {
        switch command {
        case .recordUpload(let blobId, _, _): .tag(BlobEvent.blobTag(blobId))
        }
    }

    /// The uploaders after `event`.
    public static func evolve(_ state: Set<String>, _ event: BlobEvent) -> Set<String> {
        switch event {
        case .uploaded(let p): state.union([p.uploaderId])
        }
    }

    /// A `blob.uploaded` unless the actor already recorded this blob; a malformed id or a size
    /// outside 1...`BlobLimits.imageBytesMax` is refused (the store never yields either).
    public static func decide(_ command: BlobCommand, state: Set<String>, metadata: CommandMetadata) throws(BlobError) -> [BlobEvent] {
        switch command {
        case let .recordUpload(blobId, type, bytes):
            var checks = FieldChecks()
            checks.blobId(blobId)
            checks.number(bytes, in: 1...BlobLimits.imageBytesMax, field: "bytes")
            try checks.check(BlobError.validationFailed)
            guard !state.contains(metadata.actor) else { return [] }
            return [.uploaded(.init(
                blobId: blobId, contentType: type.rawValue, bytes: bytes, uploaderId: metadata.actor, uploadedAt: metadata.now))]
        }
    }
}
