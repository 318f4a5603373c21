import EventSourcing
import Foundation

/// What albums decisions need, folded from a command's boundary: the group the command is about
/// (every event tagged `group:<id>`) and, when creating, the creations and deletions of the
/// owner's groups of the same folded name (the name's tag).
///
/// Messages are not kept at all, not even their ids: no rule depends on them, and a chat grows
/// without bound, while the runtime folds a group's every event for each command and each fold
/// step copies what it changes (`evolve` returns a new state), so a message must change nothing
/// here for that fold to stay linear. A message id's uniqueness is the caller's (a fresh UUID).
public struct AlbumsState: Sendable, Equatable {
    /// Groups by id: the command's one, plus the owner's that share its name's tag.
    public internal(set) var groups: [String: Group] = [:]

    /// No groups.
    public init() {}

    /// The live group of `ownerId` other than `groupId` whose name folds to `name`'s: the one
    /// creating `name` would collide with. A deleted group's name is free again.
    public func liveGroup(of ownerId: String, named name: String, except groupId: String) -> Group? {
        let folded = FoldedName.folded(name)
        return groups.values.first {
            !$0.isDeleted && $0.ownerId == ownerId && $0.groupId != groupId && FoldedName.folded($0.name) == folded
        }
    }

    /// One group.
    public struct Group: Sendable, Equatable {
        /// Its id.
        public internal(set) var groupId: String
        /// Its name as created (trimmed).
        public internal(set) var name: String
        /// Its creator, who owns the name.
        public internal(set) var ownerId: String
        /// The members' user ids: the creator and every account that claimed an invitation.
        public internal(set) var members: Set<String> = []
        /// Invited addresses (normalised) no account has claimed yet. An erased address (read
        /// as empty) is no one's and not kept.
        public internal(set) var pendingInvitations: Set<String> = []
        /// Claimed addresses (normalised), with the member who claimed each: an address is
        /// invited once while its member stays.
        public internal(set) var claimedAddresses: [String: String] = [:]
        /// Live photos by id; deleted ones are gone (their ids stay in `usedIds`).
        public internal(set) var photos: [String: Photo] = [:]
        /// Every id the group ever gave a photo: a new one must not be one of them, so that no
        /// read model entry is ever overwritten.
        public internal(set) var usedIds: Set<String> = []
        /// Whether the last member left; a deleted group accepts nothing.
        public internal(set) var isDeleted = false

        /// A group as created, before its first member is added.
        public init(groupId: String, name: String, ownerId: String) {
            self.groupId = groupId
            self.name = name
            self.ownerId = ownerId
        }

        /// Whether account `userId` is a member.
        public func isMember(_ userId: String) -> Bool {
            members.contains(userId)
        }

        /// Whether the normalised `email` was invited already: pending, or claimed by a member.
        public func isInvited(_ email: String) -> Bool {
            pendingInvitations.contains(email) || claimedAddresses[email] != nil
        }

        /// The distinct blobs of the live photos, sorted: what deleting the group releases.
        public var photoBlobIds: [String] {
            Set(photos.values.map(\.blobId)).sorted()
        }
    }

    /// A live photo.
    public struct Photo: Sendable, Equatable {
        /// Its id.
        public internal(set) var photoId: String
        /// Its image blob.
        public internal(set) var blobId: String
        /// The member who added it, its owner.
        public internal(set) var addedBy: String
    }
}
