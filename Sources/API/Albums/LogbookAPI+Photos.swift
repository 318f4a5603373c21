import Albums
import Blobs
import EventSourcing
import Foundation
import Projections

/// The albums app's photo routes: a member adds an image they uploaded with a description,
/// members list and show photos, and the member who added one deletes it.
extension LogbookAPI {
    func addPhoto(_ input: Operations.AddPhoto.Input) async throws -> Operations.AddPhoto.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        // Membership first, so an outsider learns nothing, not even whether their blob would do.
        try checkGroupMember(input.path.groupId, caller.userId)
        try checkOwnUpload(body.blobId, by: caller.userId, field: "blobId") { ProblemMapping.problem(for: AlbumsError.validationFailed([$0])) }
        let command = AlbumsCommand.addPhoto(
            groupId: input.path.groupId, photoId: Routes.newID(), blobId: body.blobId, description: body.description,
            by: try albumsActor(caller.userId))
        let outcome = try await commands.run(AlbumsDecider.self, command, actor: caller.userId, entity: EntityStream.group(input.path.groupId))
        guard case let .photoAdded(added)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            photoId: added.photoId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listPhotos(_ input: Operations.ListPhotos.Input) async throws -> Operations.ListPhotos.Output {
        let caller = try authenticate()
        try checkGroupMember(input.path.groupId, caller.userId)
        let page = try ProblemMapping.listQuery {
            try runtime.albums.photos(of: input.path.groupId, limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(AlbumsRoutes.photo), next: page.next))))
    }

    func getPhoto(_ input: Operations.GetPhoto.Input) async throws -> Operations.GetPhoto.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        try checkGroupMember(input.path.groupId, caller.userId)
        guard let photo = try runtime.albums.photo(input.path.photoId, of: input.path.groupId) else {
            throw ProblemMapping.problem(for: AlbumsError.photoNotFound)
        }
        let eTag = try await eTag(of: EntityStream.group(input.path.groupId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(AlbumsRoutes.photo(photo))))
    }

    func deletePhoto(_ input: Operations.DeletePhoto.Input) async throws -> Operations.DeletePhoto.Output {
        let caller = try authenticate()
        let command = AlbumsCommand.deletePhoto(groupId: input.path.groupId, photoId: input.path.photoId, by: try albumsActor(caller.userId))
        _ = try await commands.run(AlbumsDecider.self, command, actor: caller.userId, entity: EntityStream.group(input.path.groupId))
        return .noContent(.init())
    }
}
