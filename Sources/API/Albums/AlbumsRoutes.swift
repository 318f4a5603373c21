import Albums
import Foundation
import Projections

/// Conversions of the albums routes, from the read models' views to the contract's schemas.
enum AlbumsRoutes {
    static func summary(_ group: GroupSummary) -> Components.Schemas.GroupSummary {
        .init(groupId: group.groupId, name: group.name, memberCount: group.memberCount)
    }

    static func group(_ group: GroupView) -> Components.Schemas.Group {
        .init(groupId: group.groupId, name: group.name, ownerId: group.ownerId,
              members: group.members.map { .init(email: $0.email, userId: $0.userId, displayName: $0.displayName) })
    }

    static func photo(_ photo: PhotoView) -> Components.Schemas.Photo {
        .init(photoId: photo.photoId, blobId: photo.blobId, description: photo.description, addedBy: photo.addedBy,
              addedByName: photo.addedByName, addedAt: photo.addedAt)
    }

    static func message(_ message: MessageView) -> Components.Schemas.Message {
        .init(messageId: message.messageId, text: message.text, authorId: message.authorId, authorName: message.authorName,
              postedAt: message.postedAt)
    }

    /// 404 `group_not_found`: the answer to a non-member as to an unknown group.
    static var groupNotFound: Problem { ProblemMapping.problem(for: AlbumsError.groupNotFound) }
}

extension LogbookAPI {
    /// The caller as the albums decider sees them: their current address (a new group's
    /// creator's) and display name, looked up for every command. Membership is by user id.
    func albumsActor(_ userId: String) throws -> AlbumsCommand.Actor {
        guard let profile = try runtime.accounts.profile(userId) else { throw Problem.unauthorized(tokenGiven: true) }
        return AlbumsCommand.Actor(email: profile.email, displayName: profile.displayName)
    }

    /// Refuses a caller who is not a member of `groupId` now with 404 `group_not_found`, the
    /// answer the albums commands give, so queries and commands tell an outsider the same.
    func checkGroupMember(_ groupId: String, _ userId: String) throws {
        guard try runtime.albums.isMember(userId, of: groupId) else { throw AlbumsRoutes.groupNotFound }
    }
}
