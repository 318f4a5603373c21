import Foundation
import Projections
import Workplace

/// Conversions and access refusals of the workplace routes.
enum WorkplaceRoutes {
    /// Runs a `WorkplaceAccess` rule, its refusal answered with the same status and stable code
    /// as a command's.
    static func access<T>(_ rule: () throws(WorkplaceError) -> T) throws(Problem) -> T {
        do {
            return try rule()
        } catch {
            throw ProblemMapping.problem(for: error)
        }
    }

    /// Where `membership` puts its user, as `WorkplaceAccess` decides on it.
    static func viewer(_ userId: String, _ membership: WorkplaceMembership?) -> WorkplaceViewer {
        let standing: WorkplaceViewer.Standing = switch membership {
        case .member(let member)?: .member(locationId: member.locationId, admin: member.admin)
        case .pending(let request)?: .pending(locationId: request.locationId)
        case nil: .outsider
        }
        return WorkplaceViewer(userId: userId, standing: standing)
    }

    static func location(_ location: OrganisationLocation) -> Components.Schemas.OrganisationLocation {
        .init(locationId: location.locationId, name: location.name)
    }

    /// The organisation with the caller's standing: a member's own details, or an outsider's
    /// pending request.
    static func organisation(_ view: OrganisationView, _ membership: WorkplaceMembership?) -> Components.Schemas.Organisation {
        let me: Components.Schemas.OrganisationStanding = switch membership {
        case .member(let member)?:
            .init(accepted: true, admin: member.admin, locationId: member.locationId, employeeNumber: member.employeeNumber, name: member.name)
        case .pending(let request)?:
            .init(accepted: false, admin: false, pendingRequest: .init(
                locationId: request.locationId, employeeNumber: request.employeeNumber, name: request.name, requestedAt: request.requestedAt))
        case nil:
            .init(accepted: false, admin: false)
        }
        return .init(organisationId: view.organisationId, name: view.name, locations: view.locations.map(location), me: me)
    }

    static func joinRequest(_ request: JoinRequestView) -> Components.Schemas.PendingJoinRequest {
        .init(userId: request.userId, name: request.name, employeeNumber: request.employeeNumber,
              locationId: request.locationId, requestedAt: request.requestedAt)
    }

    static func member(_ member: OrganisationMember) -> Components.Schemas.OrganisationMember {
        .init(userId: member.userId, name: member.name, employeeNumber: member.employeeNumber, locationId: member.locationId, admin: member.admin)
    }

    static func form(_ form: ReviewFormView) -> Components.Schemas.ReviewForm {
        .init(formId: form.formId, name: form.name, questions: form.questions.map {
            .init(questionId: $0.questionId, text: $0.text, kind: kind($0.kind))
        })
    }

    static func question(_ question: WorkplaceEvent.Question) -> Components.Schemas.ReviewQuestion {
        .init(questionId: question.questionId, text: question.text, kind: kind(question.kind))
    }

    static func review(_ review: ReviewView) -> Components.Schemas.Review {
        .init(reviewId: review.reviewId, employeeId: review.employeeId, formId: review.formId, formName: review.formName,
              reviewer: person(review.reviewer), submittedAt: review.submittedAt,
              answers: review.answers.map { .init(questionId: $0.questionId, question: $0.question, kind: kind($0.kind), value: value($0.value)) },
              remark: review.remark)
    }

    static func news(_ item: NewsItemView) -> Components.Schemas.NewsItem {
        .init(newsId: item.newsId, locationId: item.locationId, title: item.title, text: item.text,
              imageBlobId: item.imageBlobId, postedAt: item.postedAt, author: person(item.author))
    }

    static func answer(_ answer: Components.Schemas.ReviewAnswerInput) -> WorkplaceCommand.AnswerInput {
        .init(questionId: answer.questionId, rating: answer.rating, yes: answer.yes, text: answer.text)
    }

    private static func person(_ person: WorkplacePerson) -> Components.Schemas.Colleague {
        .init(userId: person.userId, name: person.name)
    }

    private static func value(_ value: ReviewAnswerValue) -> Components.Schemas.ReviewAnswer.ValuePayload {
        switch value {
        case .rating(let rating): .case1(rating)
        case .yes(let yes): .case2(yes)
        case .text(let text): .case3(text)
        }
    }

    /// The domain's kinds are the schema's enum, spelled the same.
    private static func kind(_ kind: QuestionKind) -> Components.Schemas.ReviewQuestionKind {
        Components.Schemas.ReviewQuestionKind(rawValue: kind.rawValue)!
    }
}
