import Albums
import EventSourcing

// An erased user's part of the albums, taken out in the batch that projects `account.erased`,
// so the erasure's answer already reads it gone (SPEC §1, "Erase my account"; ADR 0010): her
// photos leave their groups; her memberships and invitations go in `applyAccount`. Her chat
// messages need nothing here: their text and name are kept sealed and read erased once her key
// is destroyed (ADR 0018). An index by user makes that bounded work: `photosByAdder`
// (`<user>/<group>/<photo>` → the photo's key in `photos`). An entry outlives a photo deleted or a
// group deleted (neither event names the adder of every photo it drops); the erasure finds
// nothing at its key and drops the entry.
extension AlbumsGroupsProjection {
    static let photosByAdder = "photosByAdder"

    /// Records that `addedBy` added the photo stored at `photoKey` in `photos`.
    func indexPhoto(at photoKey: String, addedBy userId: String, _ model: ReadModelWriter) throws {
        try model.put(photoKey, at: AlbumsKeys.userPrefix(userId) + photoKey, in: Self.photosByAdder)
    }

    /// Takes `userId`'s photos out of every group, as SPEC asks.
    func eraseAlbumsContent(of userId: String, _ model: ReadModelWriter) throws {
        let prefix = AlbumsKeys.userPrefix(userId)
        for entry in try model.entries(String.self, in: Self.photosByAdder, prefix: prefix) {
            try model.delete(entry.key, in: Self.photosByAdder)
            guard let photo = try model.value(PhotoView.self, at: entry.value, in: Self.photos) else { continue }
            try model.delete(entry.value, in: Self.photos)
            // `<group>/<photo>`: the list key is the same group prefix with the photo's position.
            let groupPrefix = String(entry.value.dropLast(ReadModelKeys.component(photo.photoId).utf8.count))
            try model.delete(ReadModelKeys.newestFirst(groupPrefix, photo.position), in: Self.photoList)
        }
        // Her memberships and the invitations of her address go in `applyAccount` (members are
        // user ids; invitations are keyed by address).
    }
}
