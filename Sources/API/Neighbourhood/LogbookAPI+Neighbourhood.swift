import Accounts
import EventLog
import Foundation
import Neighbourhood
import Projections

/// The neighbourhood routes (SPEC §4 neighbourhood, and `GET /v1/me/notifications`): commands
/// go through `CommandRunner`, so they are idempotent by `Idempotency-Key` and answered only
/// once the read models include them; queries read the neighbourhood read models.
///
/// The caller's neighbourhood is their profile's postcode now, looked up per request from the
/// accounts read model and handed to the decider and the queries, which apply one visibility
/// rule (`ReportVisibility`).
extension LogbookAPI {
    func postReport(_ input: Operations.PostReport.Input) async throws -> Operations.PostReport.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let profile = try neighbour(caller.userId)
        let command = NeighbourhoodCommand.postReport(.init(
            reportId: Routes.newID(), neighbourhood: profile.postcode, displayName: profile.displayName,
            title: body.title, description: body.description, category: body.category,
            latitude: body.location.latitude, longitude: body.location.longitude))
        let outcome = try await commands.run(NeighbourhoodDecider.self, command, actor: caller.userId)
        // From the events, not from `command`: a retried request answers with what the first made.
        guard case let .reportPosted(posted)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            reportId: posted.reportId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listReports(_ input: Operations.ListReports.Input) async throws -> Operations.ListReports.Output {
        let caller = try authenticate()
        let neighbourhood = try NeighbourhoodRoutes.required(try neighbour(caller.userId).postcode)
        let category = try input.query.category.map(NeighbourhoodRoutes.category)
        let page = try ProblemMapping.listQuery {
            try runtime.neighbourhood.reports(
                in: neighbourhood, category: category, viewer: caller.userId,
                limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(NeighbourhoodRoutes.item), next: page.next))))
    }

    func getReport(_ input: Operations.GetReport.Input) async throws -> Operations.GetReport.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        let postcode = try neighbour(caller.userId).postcode
        guard let detail = try runtime.neighbourhood.report(id: input.path.reportId, viewer: caller.userId, neighbourhood: postcode) else {
            // The decider's answers: without a postcode only one's own reports are reachable.
            throw ProblemMapping.problem(for: postcode == nil ? NeighbourhoodError.noNeighbourhood : .reportNotFound)
        }
        let eTag = try await eTag(of: EntityStream.report(input.path.reportId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(NeighbourhoodRoutes.detail(detail))))
    }

    func deleteReport(_ input: Operations.DeleteReport.Input) async throws -> Operations.DeleteReport.Output {
        let caller = try authenticate()
        let command = NeighbourhoodCommand.deleteReport(reportId: input.path.reportId, neighbourhood: try neighbour(caller.userId).postcode)
        _ = try await commands.run(NeighbourhoodDecider.self, command, actor: caller.userId, entity: EntityStream.report(input.path.reportId))
        return .noContent(.init())
    }

    func postReply(_ input: Operations.PostReply.Input) async throws -> Operations.PostReply.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let profile = try neighbour(caller.userId)
        let command = NeighbourhoodCommand.postReply(
            reportId: input.path.reportId, replyId: Routes.newID(), message: body.message,
            displayName: profile.displayName, neighbourhood: profile.postcode)
        let outcome = try await commands.run(NeighbourhoodDecider.self, command, actor: caller.userId, entity: EntityStream.report(input.path.reportId))
        guard case let .replyPosted(posted)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            replyId: posted.replyId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func followReport(_ input: Operations.FollowReport.Input) async throws -> Operations.FollowReport.Output {
        let caller = try authenticate()
        let command = NeighbourhoodCommand.followReport(reportId: input.path.reportId, neighbourhood: try neighbour(caller.userId).postcode)
        _ = try await commands.run(NeighbourhoodDecider.self, command, actor: caller.userId, entity: EntityStream.report(input.path.reportId))
        return .noContent(.init())
    }

    func unfollowReport(_ input: Operations.UnfollowReport.Input) async throws -> Operations.UnfollowReport.Output {
        let caller = try authenticate()
        let command = NeighbourhoodCommand.unfollowReport(reportId: input.path.reportId, neighbourhood: try neighbour(caller.userId).postcode)
        _ = try await commands.run(NeighbourhoodDecider.self, command, actor: caller.userId, entity: EntityStream.report(input.path.reportId))
        return .noContent(.init())
    }

    func listMyReports(_ input: Operations.ListMyReports.Input) async throws -> Operations.ListMyReports.Output {
        let caller = try authenticate()
        let page = try ProblemMapping.listQuery {
            try runtime.neighbourhood.reports(
                by: caller.userId, limit: input.query.limit,
                cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(NeighbourhoodRoutes.item), next: page.next))))
    }

    func listFollowedReports(_ input: Operations.ListFollowedReports.Input) async throws -> Operations.ListFollowedReports.Output {
        let caller = try authenticate()
        let postcode = try neighbour(caller.userId).postcode
        let page = try ProblemMapping.listQuery {
            try runtime.neighbourhood.followedReports(
                of: caller.userId, neighbourhood: postcode,
                limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(NeighbourhoodRoutes.item), next: page.next))))
    }

    func getNeighbourhoodMap(_ input: Operations.GetNeighbourhoodMap.Input) async throws -> Operations.GetNeighbourhoodMap.Output {
        let caller = try authenticate()
        let neighbourhood = try NeighbourhoodRoutes.required(try neighbour(caller.userId).postcode)
        let bounds = try input.query.bbox.map(NeighbourhoodRoutes.bounds)
        let pins = try ProblemMapping.listQuery { try runtime.neighbourhood.map(of: neighbourhood, within: bounds) }
        let collection = Components.Schemas.ReportFeatureCollection(_type: .featureCollection, features: pins.map(NeighbourhoodRoutes.feature))
        if NeighbourhoodRoutes.wantsPlainJSON(input.headers.accept) { return .ok(.init(body: .json(collection))) }
        return .ok(.init(body: .applicationGeoJson(collection)))
    }

    func listNotifications(_ input: Operations.ListNotifications.Input) async throws -> Operations.ListNotifications.Output {
        let caller = try authenticate()
        let postcode = try neighbour(caller.userId).postcode
        let page = try ProblemMapping.listQuery {
            try runtime.neighbourhood.notifications(
                of: caller.userId, neighbourhood: postcode,
                limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(NeighbourhoodRoutes.notification), next: page.next))))
    }

    /// The caller's profile now: their display name, and their postcode, which is their
    /// neighbourhood (normalised by the accounts domain at registration and profile update).
    func neighbour(_ userId: String) throws -> AccountProfile {
        guard let profile = try runtime.accounts.profile(userId) else { throw Problem.unauthorized(tokenGiven: true) }
        return profile
    }
}
