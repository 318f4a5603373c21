import Foundation
import Projections
import Workplace

/// The workplace's review-form routes. Only admins review, so only admins see the forms
/// (`WorkplaceAccess.requireAdmin`); an employee sees each question in their own reviews.
extension LogbookAPI {
    func createReviewForm(_ input: Operations.CreateReviewForm.Input) async throws -> Operations.CreateReviewForm.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.createForm(
            organisationId: input.path.organisationId, formId: Routes.newID(), name: body.name,
            questions: body.questions.map { .init(questionId: Routes.newID(), text: $0.text, kind: $0.kind) })
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        guard case let .formCreated(created)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            formId: created.formId, questions: created.questions.map(WorkplaceRoutes.question),
            position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listReviewForms(_ input: Operations.ListReviewForms.Input) async throws -> Operations.ListReviewForms.Output {
        let caller = try authenticate()
        let (organisation, viewer) = try workplaceViewer(caller.userId, of: input.path.organisationId)
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireAdmin(viewer) }
        let forms = try runtime.workplace.forms(of: organisation.organisationId)
        return .ok(.init(body: .json(.init(items: forms.map(WorkplaceRoutes.form)))))
    }

    func getReviewForm(_ input: Operations.GetReviewForm.Input) async throws -> Operations.GetReviewForm.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        let (organisation, viewer) = try workplaceViewer(caller.userId, of: input.path.organisationId)
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireAdmin(viewer) }
        guard let form = try runtime.workplace.form(id: input.path.formId, in: organisation.organisationId) else {
            throw ProblemMapping.problem(for: WorkplaceError.formNotFound)
        }
        let eTag = try await eTag(of: EntityStream.organisation(organisation.organisationId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(WorkplaceRoutes.form(form))))
    }

    func renameReviewForm(_ input: Operations.RenameReviewForm.Input) async throws -> Operations.RenameReviewForm.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.renameForm(organisationId: input.path.organisationId, formId: input.path.formId, name: body.name)
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .ok(.init(body: .json(outcome.result)))
    }

    func deleteReviewForm(_ input: Operations.DeleteReviewForm.Input) async throws -> Operations.DeleteReviewForm.Output {
        let caller = try authenticate()
        let command = WorkplaceCommand.deleteForm(organisationId: input.path.organisationId, formId: input.path.formId)
        _ = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .noContent(.init())
    }

    func addReviewQuestion(_ input: Operations.AddReviewQuestion.Input) async throws -> Operations.AddReviewQuestion.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.addQuestion(
            organisationId: input.path.organisationId, formId: input.path.formId,
            question: .init(questionId: Routes.newID(), text: body.text, kind: body.kind))
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        guard case let .questionAdded(added)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            questionId: added.question.questionId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func removeReviewQuestion(_ input: Operations.RemoveReviewQuestion.Input) async throws -> Operations.RemoveReviewQuestion.Output {
        let caller = try authenticate()
        let command = WorkplaceCommand.removeQuestion(
            organisationId: input.path.organisationId, formId: input.path.formId, questionId: input.path.questionId)
        _ = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .noContent(.init())
    }

    func reorderReviewQuestions(_ input: Operations.ReorderReviewQuestions.Input) async throws -> Operations.ReorderReviewQuestions.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.reorderQuestions(
            organisationId: input.path.organisationId, formId: input.path.formId, questionIds: body.questionIds)
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .ok(.init(body: .json(outcome.result)))
    }
}
