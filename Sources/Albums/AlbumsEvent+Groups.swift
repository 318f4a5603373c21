import EventSourcing
import Foundation

extension AlbumsEvent {
    /// `albums.groupCreated`: the creator's address is the first member's.
    public struct GroupCreated: AlbumsPayload {
        public static let typeName = "albums.groupCreated"
        public var event: AlbumsEvent { .groupCreated(self) }
        public var entityTags: [String] { [AlbumsEvent.groupNameTag(owner: ownerId, name: name)] }

        /// The new group.
        public var groupId: String
        /// Trimmed.
        public var name: String
        /// The creator, who owns the name (`groupName:` tag).
        public var ownerId: String
        /// The creator's e-mail address, normalised: the first member.
        public var ownerEmail: String
        /// When: the command's metadata time.
        public var createdAt: Date

        /// `ownerId` created `name`.
        public init(groupId: String, name: String, ownerId: String, ownerEmail: String, createdAt: Date) {
            self.groupId = groupId
            self.name = name
            self.ownerId = ownerId
            self.ownerEmail = ownerEmail
            self.createdAt = createdAt
        }
    }

    /// `albums.memberInvited`: an invitation of `email`, pending until an account that verified
    /// the address claims it (`invitationClaimed`). Until then the address is no member: it sees
    /// nothing, and the group shows it as the address alone.
    public struct MemberInvited: AlbumsPayload {
        public static let typeName = "albums.memberInvited"
        public var event: AlbumsEvent { .memberInvited(self) }

        /// The group.
        public var groupId: String
        /// The invited address, normalised (`EmailAddress.normalised`).
        public var email: String
        /// Whose personal data `email` is: the invitee may have no account (and so no user id)
        /// yet, so the address is sealed under a subject of its own, `invitee_<keyed hash of the
        /// address>`, which erasing the account that holds the address erases too (ADR 0004).
        /// Stored beside the sealed address because it cannot be computed from it once sealed.
        public var emailSubject: String
        /// Who invited it.
        public var inviterId: String
        /// When: the command's metadata time.
        public var invitedAt: Date

        /// `inviterId` invited `email`.
        public init(groupId: String, email: String, emailSubject: String, inviterId: String, invitedAt: Date) {
            self.groupId = groupId
            self.email = email
            self.emailSubject = emailSubject
            self.inviterId = inviterId
            self.invitedAt = invitedAt
        }
    }

    /// `albums.invitationClaimed`: the account `userId`, which verified `email`, took up the
    /// group's pending invitation of it and is a member from now on, whatever its e-mail later.
    public struct InvitationClaimed: AlbumsPayload {
        public static let typeName = "albums.invitationClaimed"
        public var event: AlbumsEvent { .invitationClaimed(self) }

        /// The group.
        public var groupId: String
        /// The invited address, normalised.
        public var email: String
        /// The account that claimed it, a member from now on.
        public var userId: String
        /// When: the command's metadata time.
        public var claimedAt: Date
    }

    /// `albums.memberLeft`: the account is no longer a member. (Before invitations were
    /// claimed, membership followed addresses, and `email` was the address that left.)
    public struct MemberLeft: AlbumsPayload {
        public static let typeName = "albums.memberLeft"
        public var event: AlbumsEvent { .memberLeft(self) }

        /// The group.
        public var groupId: String
        /// The address that left, normalised.
        public var email: String
        /// The account that left under it.
        public var userId: String
        /// When: the command's metadata time.
        public var leftAt: Date

        /// `userId` left under `email`.
        public init(groupId: String, email: String, userId: String, leftAt: Date) {
            self.groupId = groupId
            self.email = email
            self.userId = userId
            self.leftAt = leftAt
        }
    }

    /// `albums.groupDeleted`: appended with the last member's leaving; the group, its photos
    /// and its messages are gone, and its name is free for its owner again.
    public struct GroupDeleted: AlbumsPayload {
        public static let typeName = "albums.groupDeleted"
        public var event: AlbumsEvent { .groupDeleted(self) }
        public var entityTags: [String] { [AlbumsEvent.groupNameTag(owner: ownerId, name: name)] }

        /// The group.
        public var groupId: String
        /// Its name, for the name's tag.
        public var name: String
        /// Its creator, for the name's tag.
        public var ownerId: String
        /// The blobs of the photos it still had: no longer referenced by it.
        public var blobIds: [String]
        /// When: the command's metadata time.
        public var deletedAt: Date

        /// `groupId` is gone.
        public init(groupId: String, name: String, ownerId: String, blobIds: [String], deletedAt: Date) {
            self.groupId = groupId
            self.name = name
            self.ownerId = ownerId
            self.blobIds = blobIds
            self.deletedAt = deletedAt
        }
    }
}
