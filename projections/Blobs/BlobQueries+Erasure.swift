import EventLog

extension BlobQueries {
    /// The blobs `userId`'s live entities reference: the current avatar and every live photo the
    /// user added. What an erasure deletes from disk once no one else references them.
    public func blobsReferenced(by userId: String) throws(ReadModelError) -> Set<String> {
        try engine.read(BlobProjections.references) { model in
            var blobs: Set<String> = []
            if let avatar = try model.value(StoredBlobReference.self, at: ReadModelKeys.component(userId), in: Table.avatars) {
                blobs.insert(avatar.blobId)
            }
            for entry in try model.entries(String.self, in: Table.photosByAdder, prefix: ReadModelKeys.component(userId) + "/", limit: .max) {
                if let photo = try model.value(StoredBlobReference.self, at: entry.value, in: Table.groupPhotos) { blobs.insert(photo.blobId) }
            }
            return blobs
        }
    }

    /// Whether nothing but `userId` has anything to do with blob `blobId`: no live entity
    /// references it and no one else uploaded the same bytes (their upload is theirs too, kept
    /// for the collector's grace period).
    public func isOnly(_ userId: String, using blobId: String) throws(ReadModelError) -> Bool {
        try engine.read(BlobProjections.references) { model in
            let prefix = BlobKeys.blobPrefix(blobId)
            guard try model.entries(StoredBlobReference.self, in: Table.references, prefix: prefix, limit: 1).isEmpty else { return false }
            return try model.entries(String.self, in: Table.uploaders, prefix: prefix, limit: .max).allSatisfy { $0.value == userId }
        }
    }
}
