import EventSourcing

/// The albums rules: who may do what to a photo group, its members, photos and chat.
///
/// Membership belongs to user ids: the actor (the metadata's) is a member when they created
/// the group or claimed one of its invitations, never because of the e-mail they have now. Every
/// command on a group is checked in one order, so that a refusal says the first thing wrong and
/// an outsider learns nothing: the group exists, is live and has the actor as a member
/// (`groupNotFound` for all three), the entities named exist (`photoNotFound`), the actor may
/// act on them (`notTheOwner`), the fields are valid (`validationFailed`, every field error at
/// once), and last the conflicts with the current state (`idTaken`, `alreadyInvited`,
/// `limitReached`). A command that changes nothing produces no events.
public enum AlbumsDecider: Decider {
    /// What a user asks.
    public typealias Command = AlbumsCommand
    /// What happened.
    public typealias Event = AlbumsEvent
    /// The group the command is about.
    public typealias State = AlbumsState
    /// Why a command is refused.
    public typealias Failure = AlbumsError

    /// No groups.
    public static let initialState = AlbumsState()

    /// The group's events; when creating also the creations and deletions of the owner's groups
    /// of the same folded name (its name tag), so that the owner never has two live groups of
    /// one name: the append fails if another creation of that name arrived meanwhile.
    public static func boundary(of command: AlbumsCommand) -> Boundary {
        let group = Boundary.tag(AlbumsEvent.groupTag(command.groupId))
        guard case .createGroup(_, let name, let ownerId, _) = command else { return group }
        return group.union(.tag(AlbumsEvent.groupNameTag(owner: ownerId, name: name)))
    }

    /// The state changed in place by `event`.
    public static func evolve(_ state: inout AlbumsState, _ event: AlbumsEvent) {
        state.apply(event)
    }

    /// The events `command` produces, none when it changes nothing, or the refusal.
    public static func decide(
        _ command: AlbumsCommand, state: AlbumsState, metadata: CommandMetadata
    ) throws(AlbumsError) -> [AlbumsEvent] {
        switch command {
        case let .createGroup(groupId, name, ownerId, actor):
            return try createGroup(groupId, name: name, ownerId: ownerId, actor: actor, state: state, metadata: metadata)
        case let .invite(groupId, email, actor):
            return try invite(email, acting: member(actor, of: groupId, in: state, metadata: metadata))
        case let .addPhoto(groupId, photoId, blobId, description, actor):
            return try addPhoto(
                photoId, blobId: blobId, description: description, acting: member(actor, of: groupId, in: state, metadata: metadata))
        case let .deletePhoto(groupId, photoId, actor):
            return try deletePhoto(photoId, acting: member(actor, of: groupId, in: state, metadata: metadata))
        case let .postMessage(groupId, messageId, text, actor):
            return try postMessage(messageId, text: text, acting: member(actor, of: groupId, in: state, metadata: metadata))
        case let .leave(groupId, actor):
            return leave(acting: try member(actor, of: groupId, in: state, metadata: metadata))
        case let .claimInvitation(groupId, email):
            return try claimInvitation(email, of: groupId, in: state, metadata: metadata)
        }
    }

    /// A live group as seen by the member who acts on it.
    struct Acting {
        /// The group.
        let group: AlbumsState.Group
        /// The actor's user id.
        let userId: String
        /// The actor's current address, normalised.
        let email: String
        /// The actor's display name now.
        let displayName: String
        /// The command's metadata.
        let metadata: CommandMetadata

        /// The group's id.
        var groupId: String { group.groupId }
    }

    /// The live group `groupId` with the actor among its members; otherwise `groupNotFound`,
    /// whether the group is unknown, deleted or someone else's.
    static func member(
        _ actor: AlbumsCommand.Actor, of groupId: String, in state: AlbumsState, metadata: CommandMetadata
    ) throws(AlbumsError) -> Acting {
        let email = EmailAddress.normalised(actor.email)
        guard let group = state.groups[groupId], !group.isDeleted, group.isMember(metadata.actor) else { throw .groupNotFound }
        return Acting(group: group, userId: metadata.actor, email: email, displayName: actor.displayName, metadata: metadata)
    }
}
