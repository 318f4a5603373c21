import Foundation
import Projections
import Workplace

/// The workplace's review routes: admins review accepted members; an employee reads only their
/// own reviews (`WorkplaceAccess.reviewScope`, `requireReview`), an admin everyone's.
extension LogbookAPI {
    func submitReview(_ input: Operations.SubmitReview.Input) async throws -> Operations.SubmitReview.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.submitReview(.init(
            organisationId: input.path.organisationId, reviewId: Routes.newID(), employeeId: body.employeeId,
            formId: body.formId, answers: body.answers.map(WorkplaceRoutes.answer), remark: body.remark))
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        guard case let .reviewSubmitted(submitted)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            reviewId: submitted.reviewId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listReviews(_ input: Operations.ListReviews.Input) async throws -> Operations.ListReviews.Output {
        let caller = try authenticate()
        let (organisation, viewer) = try workplaceViewer(caller.userId, of: input.path.organisationId)
        let scope = try WorkplaceRoutes.access { () throws(WorkplaceError) in
            try WorkplaceAccess.reviewScope(requested: input.query.employeeId, viewer)
        }
        let employeeId: String? = switch scope {
        case .all: nil
        case .employee(let id): id
        }
        let page: ItemPage<ReviewView>
        do {
            page = try await runtime.workplace.reviews(
                in: organisation.organisationId, employee: employeeId, limit: input.query.limit, cursor: input.query.cursor)
        } catch {
            throw ProblemMapping.problem(for: error)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(WorkplaceRoutes.review), next: page.next))))
    }

    func getReview(_ input: Operations.GetReview.Input) async throws -> Operations.GetReview.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        let (organisation, viewer) = try workplaceViewer(caller.userId, of: input.path.organisationId)
        // Membership first, so that an outsider learns nothing of the review ids.
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireMember(viewer) }
        guard let locator = try runtime.workplace.locateReview(id: input.path.reviewId, in: organisation.organisationId) else {
            throw ProblemMapping.problem(for: WorkplaceError.reviewNotFound)
        }
        // Before the review is read from the log: someone else's is never opened for this caller.
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireReview(of: locator.employeeId, viewer) }
        let review = try await runtime.workplace.review(at: locator)
        let eTag = try await eTag(of: EntityStream.organisation(organisation.organisationId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(WorkplaceRoutes.review(review))))
    }
}
