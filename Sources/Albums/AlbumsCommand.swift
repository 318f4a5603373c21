/// What a user asks of a photo group. New ids, and the actor's current e-mail address and display
/// name, are generated or looked up by the caller, so deciding stays pure; the actor's user id
/// and the time arrive in `CommandMetadata`. Membership belongs to user ids: an invited address
/// becomes a member only when an account that verified it claims the invitation. Texts arrive as the client sent them: the decider
/// trims and checks them.
public enum AlbumsCommand: Sendable, Equatable {
    /// Creates a group with the actor as its first member. `ownerId` is the actor's user id (the
    /// metadata's actor): the boundary, which sees only the command, needs it for the name's tag.
    case createGroup(groupId: String, name: String, ownerId: String, by: Actor)
    /// A member invites an e-mail address.
    case invite(groupId: String, email: String, by: Actor)
    /// A member adds a photo of an image blob they uploaded (the caller checked the upload).
    case addPhoto(groupId: String, photoId: String, blobId: String, description: String, by: Actor)
    /// The member who added a photo deletes it.
    case deletePhoto(groupId: String, photoId: String, by: Actor)
    /// A member posts a chat message.
    case postMessage(groupId: String, messageId: String, text: String, by: Actor)
    /// A member leaves; the last member leaving deletes the group.
    case leave(groupId: String, by: Actor)
    /// The account that verified `email` (the metadata's actor; the caller checked the
    /// verification) claims the group's pending invitation of that address and is a member from
    /// then on. Nothing pending for the address: nothing happens.
    case claimInvitation(groupId: String, email: String)

    /// The group every command is about.
    public var groupId: String {
        switch self {
        case .createGroup(let id, _, _, _), .invite(let id, _, _), .addPhoto(let id, _, _, _, _), .deletePhoto(let id, _, _),
             .postMessage(let id, _, _, _), .leave(let id, _), .claimInvitation(let id, _):
            id
        }
    }

    /// Who asks, as the caller found their account now. Membership is by the metadata's actor
    /// (the user id), never by this address.
    public struct Actor: Sendable, Equatable {
        /// The account's current e-mail address (normalised by the decider): a new group's
        /// creator's address, claimed by the creator.
        public var email: String
        /// The account's display name.
        public var displayName: String

        /// The actor with `email` and `displayName`.
        public init(email: String, displayName: String) {
            self.email = email
            self.displayName = displayName
        }
    }
}
