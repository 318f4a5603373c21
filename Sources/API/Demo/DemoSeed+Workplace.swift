import Foundation
import Projections
import Workplace

/// What the demo's workplace part made: the ids the README's curl walk-through uses.
public struct DemoWorkplace: Sendable, Equatable {
    /// The organisation's id.
    public var organisationId: String
    /// `DemoSeed.organisationName`.
    public var organisationName: String
    /// Amsterdam, where Ann (the admin) works.
    public var headOfficeId: String
    /// Utrecht, where Bob (an employee) works.
    public var branchId: String
    /// The review form with one question of each kind.
    public var formId: String
    /// Ann's review of Bob.
    public var reviewId: String
    /// The news item at Bob's location.
    public var newsId: String
}

extension DemoSeed {
    /// The demo organisation's name.
    public static let organisationName = "Comcom Demo"
}

extension DemoSeeder {
    /// Ann's organisation with two locations: Ann registers it (its admin, in Amsterdam), Bob
    /// asks to join in Utrecht and Ann accepts him; Ann makes a review form with one question
    /// of each kind, reviews Bob with it and posts news to Utrecht. So every workplace route has
    /// something to show to both an admin and an employee.
    func seedWorkplace(ann: String, bob: String) async throws -> DemoWorkplace {
        let organisationId = Routes.newID()
        let headOfficeId = Routes.newID(), branchId = Routes.newID()
        try await run(.registerOrganisation(
            organisationId: organisationId, name: DemoSeed.organisationName,
            locations: [.init(locationId: headOfficeId, name: "Amsterdam"), .init(locationId: branchId, name: "Utrecht")],
            creatorName: try displayName(of: ann)), as: ann)
        try await run(.requestToJoin(organisationId: organisationId, locationId: branchId, employeeNumber: "E-1002",
                                     name: try displayName(of: bob)), as: bob)
        try await run(.acceptJoinRequest(organisationId: organisationId, userId: bob, correction: .init()), as: ann)

        let formId = Routes.newID()
        let questions = [
            (text: "How well does the employee work with colleagues?", kind: QuestionKind.rating),
            (text: "Did the employee complete the safety training?", kind: .yesNo),
            (text: "What should the employee work on next?", kind: .text),
        ].map { WorkplaceCommand.NewQuestion(questionId: Routes.newID(), text: $0.text, kind: $0.kind.rawValue) }
        try await run(.createForm(organisationId: organisationId, formId: formId, name: "Quarterly review", questions: questions), as: ann)

        let reviewId = Routes.newID()
        let answers: [WorkplaceCommand.AnswerInput] = [
            .init(questionId: questions[0].questionId, rating: 4),
            .init(questionId: questions[1].questionId, yes: true),
            .init(questionId: questions[2].questionId, text: "Share what you learnt on the forklift course with the new colleagues."),
        ]
        try await run(.submitReview(.init(organisationId: organisationId, reviewId: reviewId, employeeId: bob, formId: formId,
                                          answers: answers, remark: "Discussed in person; a good first quarter.")), as: ann)

        let newsId = Routes.newID()
        try await run(.postNews(organisationId: organisationId, newsId: newsId, locationId: branchId, title: "New shift schedule",
                                text: "The schedule for next month is on the notice board in the staff room.", imageBlobId: nil), as: ann)
        return DemoWorkplace(organisationId: organisationId, organisationName: DemoSeed.organisationName, headOfficeId: headOfficeId,
                             branchId: branchId, formId: formId, reviewId: reviewId, newsId: newsId)
    }

    /// Runs a workplace command as `actor`; the read models include it on return.
    private func run(_ command: WorkplaceCommand, as actor: String) async throws {
        _ = try await runner.run(WorkplaceDecider.self, command, actor: actor)
    }
}
