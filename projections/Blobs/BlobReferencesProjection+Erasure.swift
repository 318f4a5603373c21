// An erased user's photos stop referencing their blobs in the batch that projects
// `account.erased`, as they leave their groups in `albums.groups` (ADR 0010): the erasure then
// deletes the bytes nothing else references. `photosByAdder` (`<user>/<group>/<photo>` → the
// photo's key in `groupPhotos`) makes that bounded work; an entry outlives a photo or group
// deleted, and the erasure finds no reference at its key and drops it.
extension BlobReferencesProjection {
    static let photosByAdder = "photosByAdder"

    /// Records that `userId` added the photo whose reference is at `photoKey` in `groupPhotos`.
    func indexPhoto(at photoKey: String, addedBy userId: String, _ model: ReadModelWriter) throws {
        try model.put(photoKey, at: Self.adderPrefix(userId) + photoKey, in: Self.photosByAdder)
    }

    /// Drops the references of every photo `userId` added.
    func dropPhotos(addedBy userId: String, _ model: ReadModelWriter) throws {
        for entry in try model.entries(String.self, in: Self.photosByAdder, prefix: Self.adderPrefix(userId)) {
            try model.delete(entry.key, in: Self.photosByAdder)
            try dropReference(from: entry.value, in: Self.groupPhotos, model)
        }
    }

    /// `<user>/`.
    private static func adderPrefix(_ userId: String) -> String {
        ReadModelKeys.component(userId) + "/"
    }
}
