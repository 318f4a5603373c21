import Albums
import Foundation
import Projections

/// The albums app's group routes: create, list mine, show one with its members, invite, leave.
/// Only members see or change a group; everyone else gets 404 `group_not_found`.
extension LogbookAPI {
    func createGroup(_ input: Operations.CreateGroup.Input) async throws -> Operations.CreateGroup.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = AlbumsCommand.createGroup(
            groupId: Routes.newID(), name: body.name, ownerId: caller.userId, by: try albumsActor(caller.userId))
        let outcome = try await commands.run(AlbumsDecider.self, command, actor: caller.userId)
        guard case let .groupCreated(created)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            groupId: created.groupId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listGroups(_ input: Operations.ListGroups.Input) async throws -> Operations.ListGroups.Output {
        let caller = try authenticate()
        let groups = try runtime.albums.groups(ofUser: caller.userId)
        return .ok(.init(body: .json(.init(items: groups.map(AlbumsRoutes.summary)))))
    }

    func getGroup(_ input: Operations.GetGroup.Input) async throws -> Operations.GetGroup.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        try checkGroupMember(input.path.groupId, caller.userId)
        guard let group = try runtime.albums.group(input.path.groupId) else { throw AlbumsRoutes.groupNotFound }
        let eTag = try await eTag(of: EntityStream.group(input.path.groupId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(AlbumsRoutes.group(group))))
    }

    func inviteMember(_ input: Operations.InviteMember.Input) async throws -> Operations.InviteMember.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = AlbumsCommand.invite(groupId: input.path.groupId, email: body.email, by: try albumsActor(caller.userId))
        let outcome = try await commands.run(AlbumsDecider.self, command, actor: caller.userId, entity: EntityStream.group(input.path.groupId))
        // The invitation grants nothing until claimed: at once, if its address is verified already.
        try await AlbumsInvitationClaims(runtime: runtime).claimInvitation(of: body.email, in: input.path.groupId)
        return .created(.init(body: .json(outcome.result)))
    }

    func leaveGroup(_ input: Operations.LeaveGroup.Input) async throws -> Operations.LeaveGroup.Output {
        let caller = try authenticate()
        let command = AlbumsCommand.leave(groupId: input.path.groupId, by: try albumsActor(caller.userId))
        _ = try await commands.run(AlbumsDecider.self, command, actor: caller.userId, entity: EntityStream.group(input.path.groupId))
        return .noContent(.init())
    }
}
