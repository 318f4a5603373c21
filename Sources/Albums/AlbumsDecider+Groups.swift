import EventSourcing

extension AlbumsDecider {
    /// The name is checked against the owner's live groups only: another user's group of the
    /// same name is no clash, and a deleted group's name is free again.
    static func createGroup(
        _ groupId: String, name rawName: String, ownerId: String, actor: AlbumsCommand.Actor, state: AlbumsState,
        metadata: CommandMetadata
    ) throws(AlbumsError) -> [AlbumsEvent] {
        // The API passes the metadata's actor as the owner; anything else is a caller bug that
        // would file the name under the wrong user's tag.
        assert(ownerId == metadata.actor, "createGroup's ownerId must be the metadata's actor")
        var checks = FieldChecks()
        let name = checks.text(rawName, in: AlbumsLimits.groupNameCharacters, field: "name")
        try checks.check { AlbumsError.validationFailed($0) }
        guard state.groups[groupId] == nil else { throw .idTaken }
        guard state.liveGroup(of: ownerId, named: name, except: groupId) == nil else { throw .groupNameTaken }
        return [.groupCreated(.init(
            groupId: groupId, name: name, ownerId: ownerId, ownerEmail: EmailAddress.normalised(actor.email),
            createdAt: metadata.now))]
    }

    /// An address is invited once: inviting it again, pending or claimed by a member, is
    /// `alreadyInvited`, even when it is the inviter's own. The invitation grants nothing yet:
    /// the caller claims it for an account that verified the address, now or later.
    static func invite(_ rawEmail: String, acting: Acting) throws(AlbumsError) -> [AlbumsEvent] {
        var checks = FieldChecks()
        let email = checks.inviteeEmail(rawEmail)
        try checks.check { AlbumsError.validationFailed($0) }
        guard !acting.group.isInvited(email) else { throw .alreadyInvited }
        let group = acting.group
        guard group.members.count + group.pendingInvitations.count < AlbumsLimits.membersPerGroupMax else {
            throw .limitReached(.members)
        }
        return [.memberInvited(.init(
            groupId: acting.groupId, email: email, emailSubject: AlbumsNames.inviteeSubject(email: email),
            inviterId: acting.userId, invitedAt: acting.metadata.now))]
    }

    /// The actor leaves. When they were the last member, the group goes with it (pending
    /// invitations keep no group alive), and with it the references of its live photos to their
    /// blobs (listed, so that collection needs no other event).
    static func leave(acting: Acting) -> [AlbumsEvent] {
        let now = acting.metadata.now
        var events: [AlbumsEvent] = [.memberLeft(.init(groupId: acting.groupId, email: acting.email, userId: acting.userId, leftAt: now))]
        if acting.group.members == [acting.userId] {
            events.append(.groupDeleted(.init(
                groupId: acting.groupId, name: acting.group.name, ownerId: acting.group.ownerId,
                blobIds: acting.group.photoBlobIds, deletedAt: now)))
        }
        return events
    }
}

extension AlbumsDecider {
    /// The actor takes up the pending invitation of `rawEmail`, which the caller checked is the
    /// actor's verified address. The group must be live; no pending invitation of the address
    /// (never invited, claimed already, or the group's members changed meanwhile) claims nothing.
    /// An outsider may claim: that is what makes them a member.
    static func claimInvitation(
        _ rawEmail: String, of groupId: String, in state: AlbumsState, metadata: CommandMetadata
    ) throws(AlbumsError) -> [AlbumsEvent] {
        guard let group = state.groups[groupId], !group.isDeleted else { throw .groupNotFound }
        let email = EmailAddress.normalised(rawEmail)
        guard group.pendingInvitations.contains(email) else { return [] }
        return [.invitationClaimed(.init(groupId: groupId, email: email, userId: metadata.actor, claimedAt: metadata.now))]
    }
}
