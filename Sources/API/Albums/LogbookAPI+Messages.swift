import Albums
import Foundation
import Projections

/// The albums app's group chat: members post and read messages, newest first.
extension LogbookAPI {
    func postMessage(_ input: Operations.PostMessage.Input) async throws -> Operations.PostMessage.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = AlbumsCommand.postMessage(
            groupId: input.path.groupId, messageId: Routes.newID(), text: body.text, by: try albumsActor(caller.userId))
        let outcome = try await commands.run(AlbumsDecider.self, command, actor: caller.userId, entity: EntityStream.group(input.path.groupId))
        guard case let .messagePosted(posted)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            messageId: posted.messageId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listMessages(_ input: Operations.ListMessages.Input) async throws -> Operations.ListMessages.Output {
        let caller = try authenticate()
        try checkGroupMember(input.path.groupId, caller.userId)
        let page = try ProblemMapping.listQuery {
            try runtime.albums.messages(of: input.path.groupId, limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(AlbumsRoutes.message), next: page.next))))
    }
}
