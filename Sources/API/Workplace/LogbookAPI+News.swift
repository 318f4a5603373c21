import EventSourcing
import Foundation
import Projections
import Workplace

/// The workplace's news routes: admins post to a location and delete; an employee reads only
/// their own location's news (`WorkplaceAccess.newsScope`), an admin every location's.
extension LogbookAPI {
    func postNews(_ input: Operations.PostNews.Input) async throws -> Operations.PostNews.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        if let blobId = body.imageBlobId {
            try checkOwnUpload(blobId, by: caller.userId, field: "imageBlobId") { ProblemMapping.problem(for: WorkplaceError.validationFailed([$0])) }
        }
        let command = WorkplaceCommand.postNews(
            organisationId: input.path.organisationId, newsId: Routes.newID(), locationId: body.locationId,
            title: body.title, text: body.text, imageBlobId: body.imageBlobId)
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        guard case let .newsPosted(posted)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            newsId: posted.newsId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listNews(_ input: Operations.ListNews.Input) async throws -> Operations.ListNews.Output {
        let caller = try authenticate()
        let (organisation, viewer) = try workplaceViewer(caller.userId, of: input.path.organisationId)
        let scope = try WorkplaceRoutes.access { () throws(WorkplaceError) in
            try WorkplaceAccess.newsScope(requested: input.query.locationId, viewer)
        }
        let locationId: String?
        switch scope {
        case .all:
            locationId = nil
        case .location(let id):
            // An admin may name any location, but only one the organisation has.
            guard organisation.locations.contains(where: { $0.locationId == id }) else { throw ProblemMapping.problem(for: WorkplaceError.locationNotFound) }
            locationId = id
        }
        let page = try ProblemMapping.listQuery {
            try runtime.workplace.news(in: organisation.organisationId, location: locationId, limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(WorkplaceRoutes.news), next: page.next))))
    }

    func deleteNews(_ input: Operations.DeleteNews.Input) async throws -> Operations.DeleteNews.Output {
        let caller = try authenticate()
        let command = WorkplaceCommand.deleteNews(organisationId: input.path.organisationId, newsId: input.path.newsId)
        _ = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .noContent(.init())
    }
}
