extension AlbumsState {
    /// Folds one event. Events of a group the state does not hold (their creation outside the
    /// boundary) change nothing: no decision needs them.
    mutating func apply(_ event: AlbumsEvent) {
        switch event {
        case .groupCreated(let e):
            var group = Group(groupId: e.groupId, name: e.name, ownerId: e.ownerId)
            group.members.insert(e.ownerId)
            if !e.ownerEmail.isEmpty { group.claimedAddresses[e.ownerEmail] = e.ownerId }
            groups[e.groupId] = group
        case .memberInvited(let e):
            guard !e.email.isEmpty, groups[e.groupId]?.isInvited(e.email) == false else { return }
            groups[e.groupId]?.pendingInvitations.insert(e.email)
        case .invitationClaimed(let e):
            groups[e.groupId]?.pendingInvitations.remove(e.email)
            if !e.email.isEmpty { groups[e.groupId]?.claimedAddresses[e.email] = e.userId }
            groups[e.groupId]?.members.insert(e.userId)
        case .photoAdded(let e):
            groups[e.groupId]?.photos[e.photoId] = Photo(photoId: e.photoId, blobId: e.blobId, addedBy: e.addedBy)
            groups[e.groupId]?.usedIds.insert(e.photoId)
        case .photoDeleted(let e):
            groups[e.groupId]?.photos[e.photoId] = nil
        case .messagePosted:
            break  // see AlbumsState: a message must change nothing here
        case .memberLeft(let e):
            guard var group = groups[e.groupId] else { return }
            group.members.remove(e.userId)
            group.claimedAddresses = group.claimedAddresses.filter { $0.value != e.userId }
            // Before claims, membership followed the address: a leave then spent the address's invitation.
            group.pendingInvitations.remove(e.email)
            groups[e.groupId] = group
        case .groupDeleted(let e):
            groups[e.groupId]?.isDeleted = true
            groups[e.groupId]?.members = []
            groups[e.groupId]?.pendingInvitations = []
            groups[e.groupId]?.claimedAddresses = [:]
            groups[e.groupId]?.photos = [:]
        }
    }
}
