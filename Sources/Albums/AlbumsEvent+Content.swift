import EventSourcing
import Foundation

extension AlbumsEvent {
    /// `albums.photoAdded`.
    public struct PhotoAdded: AlbumsPayload {
        public static let typeName = "albums.photoAdded"
        public var entityTags: [String] { ["photo:\(photoId)"] }
        public var event: AlbumsEvent { .photoAdded(self) }

        /// The group.
        public var groupId: String
        /// The new photo.
        public var photoId: String
        /// The image blob (its uploader is `addedBy`).
        public var blobId: String
        /// Trimmed, required.
        public var description: String
        /// The member who added it, its owner.
        public var addedBy: String
        /// Their display name at the time.
        public var addedByName: String
        /// When: the command's metadata time.
        public var addedAt: Date

        /// `addedBy` added `blobId` as `photoId`.
        public init(groupId: String, photoId: String, blobId: String, description: String, addedBy: String, addedByName: String, addedAt: Date) {
            self.groupId = groupId
            self.photoId = photoId
            self.blobId = blobId
            self.description = description
            self.addedBy = addedBy
            self.addedByName = addedByName
            self.addedAt = addedAt
        }
    }

    /// `albums.photoDeleted`: its owner deleted it.
    public struct PhotoDeleted: AlbumsPayload {
        public static let typeName = "albums.photoDeleted"
        public var entityTags: [String] { ["photo:\(photoId)"] }
        public var event: AlbumsEvent { .photoDeleted(self) }

        /// The group.
        public var groupId: String
        /// The deleted photo.
        public var photoId: String
        /// Its blob, no longer referenced by it.
        public var blobId: String
        /// Who deleted it (its owner).
        public var actorId: String

        /// `actorId` deleted `photoId`.
        public init(groupId: String, photoId: String, blobId: String, actorId: String) {
            self.groupId = groupId
            self.photoId = photoId
            self.blobId = blobId
            self.actorId = actorId
        }
    }

    /// `albums.messagePosted`: a chat message.
    public struct MessagePosted: AlbumsPayload {
        public static let typeName = "albums.messagePosted"
        public var entityTags: [String] { ["message:\(messageId)"] }
        public var event: AlbumsEvent { .messagePosted(self) }

        /// The group.
        public var groupId: String
        /// The new message.
        public var messageId: String
        /// Trimmed, required.
        public var text: String
        /// The member who wrote it.
        public var authorId: String
        /// Their display name at the time.
        public var authorName: String
        /// When: the command's metadata time.
        public var postedAt: Date

        /// `authorId` wrote `text`.
        public init(groupId: String, messageId: String, text: String, authorId: String, authorName: String, postedAt: Date) {
            self.groupId = groupId
            self.messageId = messageId
            self.text = text
            self.authorId = authorId
            self.authorName = authorName
            self.postedAt = postedAt
        }
    }
}
