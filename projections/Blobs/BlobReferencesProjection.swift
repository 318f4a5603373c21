import Accounts
import Albums
import Blobs
import EventLog
import EventSourcing
import Workplace

/// Who uploaded each blob, and which live entities reference it: photos of live groups, current
/// avatars, live workplace news. The API checks uploads with it before a command uses a blob,
/// authorises blob reads with it, and the blob store's collector keeps what it lists.
///
/// A reference is a row of its own under its blob (`<blob>/<kind>/<ids>`), so one prefix scan
/// answers "who references this blob", and an entity going away deletes one key. The events
/// that end a reference do not all carry the blob (a deleted news item does not), so the
/// projection keeps each referencing entity's blob itself (`groupPhotos`, `newsImages`,
/// `avatars`): it never depends on another domain's event to list what it dropped.
public struct BlobReferencesProjection: Projection {
    /// The stable name.
    public var name: String { "blobs.references" }
    /// Version 2: `photosByAdder`, so an erasure drops its user's photos (version 1 kept them).
    public var version: Int { 2 }
    /// Uploads, and the entities that may reference a blob.
    public var reads: [any DecodableDomainEvent.Type]? { [BlobEvent.self, AlbumsProjectionInput.self, AccountEvent.self, WorkplaceProjectionInput.self] }
    /// `uploads`: `<blob>` → `StoredUpload` (its first upload);
    /// `uploaders`: `<blob>/<user>` → the user id;
    /// `references`: `<blob>/p/<group>/<photo>`, `<blob>/a/<user>`, `<blob>/n/<org>/<news>` →
    /// `StoredBlobReference`;
    /// `groupPhotos`: `<group>/<photo>` → its `StoredBlobReference` (live photos);
    /// `newsImages`: `<org>/<news>` → its `StoredBlobReference` (live news items with an image);
    /// `avatars`: `<user>` → its `StoredBlobReference` (current avatars);
    /// `photosByAdder`: `<user>/<group>/<photo>` → the photo's key in `groupPhotos` (`+Erasure`).
    public var tables: [String] {
        [Self.uploads, Self.uploaders, Self.references, Self.groupPhotos, Self.newsImages, Self.avatars, Self.photosByAdder]
    }

    static let uploads = "uploads"
    static let uploaders = "uploaders"
    static let references = "references"
    static let groupPhotos = "groupPhotos"
    static let newsImages = "newsImages"
    static let avatars = "avatars"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds uploads, and the events that make or end a reference; ignores the rest.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if let blob = try event.decoded(as: BlobEvent.self) {
            guard case .uploaded(let p) = blob else { return }
            try upload(p, model)
        } else if let albums = try event.decoded(as: AlbumsProjectionInput.self)?.event {
            // As `albums.groups` reads it, so a build decodes each albums event once.
            try applyAlbums(albums, model)
        } else if let account = try event.decoded(as: AccountEvent.self) {
            try applyAccount(account, model)
        } else if case .event(let workplace)? = try event.decoded(as: WorkplaceProjectionInput.self) {
            // As the workplace's own read models read it, so a build decodes each event once and
            // a review (which refers to no blob) only as its ids.
            try applyWorkplace(workplace, model)
        }
    }

    private func upload(_ p: BlobEvent.Uploaded, _ model: ReadModelWriter) throws {
        // The first upload of the bytes stays: a later one by someone else changes nothing here.
        let upload = StoredUpload(contentType: p.contentType, bytes: p.bytes, firstUploadedAt: p.uploadedAt)
        _ = try model.insert(upload, at: BlobKeys.blob(p.blobId), in: Self.uploads)
        try model.put(p.uploaderId, at: BlobKeys.uploader(p.blobId, p.uploaderId), in: Self.uploaders)
    }

    private func applyAlbums(_ event: AlbumsEvent, _ model: ReadModelWriter) throws {
        switch event {
        case .photoAdded(let p):
            try refer(p.blobId, .photo(groupId: p.groupId, photoId: p.photoId), from: BlobKeys.item(p.groupId, p.photoId), in: Self.groupPhotos, model)
            try indexPhoto(at: BlobKeys.item(p.groupId, p.photoId), addedBy: p.addedBy, model)
        case .photoDeleted(let p):
            try dropReference(from: BlobKeys.item(p.groupId, p.photoId), in: Self.groupPhotos, model)
        case .groupDeleted(let p):
            for key in try model.keys(in: Self.groupPhotos, prefix: BlobKeys.ownerPrefix(p.groupId)) {
                try dropReference(from: key, in: Self.groupPhotos, model)
            }
        case .groupCreated, .memberInvited, .invitationClaimed, .messagePosted, .memberLeft:
            break
        }
    }

    private func applyAccount(_ event: AccountEvent, _ model: ReadModelWriter) throws {
        switch event {
        case .avatarChanged(let p):
            let key = ReadModelKeys.component(p.userId)
            try dropReference(from: key, in: Self.avatars, model)
            try refer(p.blobId, .avatar(userId: p.userId), from: key, in: Self.avatars, model)
        case .erased(let p):
            // The images are the user's: once erased, nothing shows them, and they are collectable.
            try dropReference(from: ReadModelKeys.component(p.userId), in: Self.avatars, model)
            try dropPhotos(addedBy: p.userId, model)
        default:
            break
        }
    }

    private func applyWorkplace(_ event: WorkplaceEvent, _ model: ReadModelWriter) throws {
        switch event {
        case .newsPosted(let p):
            guard let blobId = p.imageBlobId else { return }
            let reference = BlobReference.news(organisationId: p.organisationId, newsId: p.newsId, locationId: p.locationId)
            try refer(blobId, reference, from: BlobKeys.item(p.organisationId, p.newsId), in: Self.newsImages, model)
        case .newsDeleted(let p):
            try dropReference(from: BlobKeys.item(p.organisationId, p.newsId), in: Self.newsImages, model)
        default:
            break
        }
    }

    /// Records that `reference` uses `blobId`, and under `entityKey` in `entities` which
    /// reference the entity made, for dropping it when the entity goes.
    private func refer(_ blobId: String, _ reference: BlobReference, from entityKey: String, in entities: String, _ model: ReadModelWriter) throws {
        let stored = StoredBlobReference(blobId: blobId, reference: reference)
        try model.put(stored, at: entityKey, in: entities)
        try model.put(stored, at: BlobKeys.reference(blobId, reference), in: Self.references)
    }

    /// Drops the reference the entity under `entityKey` in `entities` made; nothing when none.
    func dropReference(from entityKey: String, in entities: String, _ model: ReadModelWriter) throws {
        guard let stored = try model.value(StoredBlobReference.self, at: entityKey, in: entities) else { return }
        try model.delete(entityKey, in: entities)
        try model.delete(BlobKeys.reference(stored.blobId, stored.reference), in: Self.references)
    }
}
