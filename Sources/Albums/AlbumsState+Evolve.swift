extension AlbumsState {
    /// Folds one event. Events of a group the state does not hold (their creation outside the
    /// boundary) change nothing: no decision needs them.
    mutating func apply(_ event: AlbumsEvent) {
        switch event {
        case .groupCreated(let e):
            var group = Group(groupId: e.groupId, name: e.name, ownerId: e.ownerId)
            if !e.ownerEmail.isEmpty { group.members.insert(e.ownerEmail) }
            groups[e.groupId] = group
        case .memberInvited(let e):
            if !e.email.isEmpty { groups[e.groupId]?.members.insert(e.email) }
        case .photoAdded(let e):
            groups[e.groupId]?.photos[e.photoId] = Photo(photoId: e.photoId, blobId: e.blobId, addedBy: e.addedBy)
            groups[e.groupId]?.usedIds.insert(e.photoId)
        case .photoDeleted(let e):
            groups[e.groupId]?.photos[e.photoId] = nil
        case .messagePosted:
            break  // see AlbumsState: a message must change nothing here
        case .memberLeft(let e):
            groups[e.groupId]?.members.remove(e.email)
        case .groupDeleted(let e):
            groups[e.groupId]?.isDeleted = true
            groups[e.groupId]?.members = []
            groups[e.groupId]?.photos = [:]
        }
    }
}
