import EventLog
import Foundation

/// What the blob routes, the routes that use a blob, and the blob store's collector ask of the
/// blob references read model. Queries read the served copy as it is; a command's handler waits
/// with `ProjectionEngine.waitUntilProjected` before answering, which is what makes the next
/// query read its own writes.
public struct BlobQueries<Store: EventStore>: Sendable {
    /// The engine the blob projections are registered with.
    public let engine: ProjectionEngine<Store>

    /// Queries over `engine`, which must run `BlobProjections.all`: reading an unregistered
    /// projection would silently answer from empty tables.
    public init(engine: ProjectionEngine<Store>) {
        let registered = Set(engine.projections.map(\.name))
        precondition(BlobProjections.all.allSatisfy { registered.contains($0.name) }, "blob projections are registered")
        self.engine = engine
    }

    /// What the log says of blob `blobId`'s uploads; nil when no one uploaded it.
    public func upload(_ blobId: String) throws(ReadModelError) -> BlobUploadView? {
        try engine.read(BlobProjections.references) { model -> BlobUploadView? in
            guard let upload = try model.value(StoredUpload.self, at: BlobKeys.blob(blobId), in: Table.uploads) else { return nil }
            let uploaders = try model.entries(String.self, in: Table.uploaders, prefix: BlobKeys.blobPrefix(blobId), limit: .max)
                .map(\.value)
            return BlobUploadView(
                blobId: blobId, contentType: upload.contentType, bytes: upload.bytes, uploaderIds: uploaders,
                firstUploadedAt: upload.firstUploadedAt)
        }
    }

    /// Whether `userId` uploaded blob `blobId`: a command may use only a blob its actor uploaded.
    public func wasUploaded(_ blobId: String, by userId: String) throws(ReadModelError) -> Bool {
        try engine.read(BlobProjections.references) { model in
            try model.value(String.self, at: BlobKeys.uploader(blobId, userId), in: Table.uploaders) != nil
        }
    }

    /// The live entities referencing blob `blobId`, in key order (photos by group and photo,
    /// then avatars, then news).
    public func references(to blobId: String) throws(ReadModelError) -> [BlobReference] {
        try engine.read(BlobProjections.references) { model in
            try model.entries(StoredBlobReference.self, in: Table.references, prefix: BlobKeys.blobPrefix(blobId), limit: .max)
                .map(\.value.reference)
        }
    }

    /// Every blob some live entity references: what the collector must keep. One pass over the
    /// references, in one snapshot.
    public func referencedBlobIds() throws(ReadModelError) -> Set<String> {
        try engine.read(BlobProjections.references) { model in
            Set(try model.entries(StoredBlobReference.self, in: Table.references, limit: .max).map(\.value.blobId))
        }
    }

    typealias Table = BlobReferencesProjection
}
