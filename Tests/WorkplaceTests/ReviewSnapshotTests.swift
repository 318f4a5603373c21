import EventSourcing
import Foundation
import Testing
@testable import Workplace

/// A review keeps the form's name and every question's text and kind as they were: later
/// edits and the form's deletion change no stored review, and new reviews use the form as it
/// is now.
@Suite("Workplace review snapshots")
struct ReviewSnapshotTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    @Test func aRenameAQuestionRemovalAndADeletionLeaveAnEarlierReviewAsItWas() throws {
        var log = F.withForm
        let first = try D.given(log).when(F.submit(), F.by(F.ann)).get()
        #expect(first == [SubmitReviewTests.reviewed()])
        let stored = try first.map { try $0.encodeData() }
        log += first

        // Renamed, a question removed, another added, the rest reordered.
        let edits: [WorkplaceCommand] = [
            .renameForm(organisationId: F.acme, formId: F.yearly, name: "Annual review"),
            .removeQuestion(organisationId: F.acme, formId: F.yearly, questionId: F.qYes),
            .addQuestion(organisationId: F.acme, formId: F.yearly, question: .init(questionId: F.qNew, text: "Ready to lead?", kind: "yesNo")),
            .reorderQuestions(organisationId: F.acme, formId: F.yearly, questionIds: [F.qText, F.qNew, F.qRating]),
        ]
        for edit in edits { log += try D.given(log).when(edit, F.by(F.ann)).get() }

        // The earlier review is the same event, byte for byte, and decodes to what it said.
        #expect(Array(log[F.withForm.count..<F.withForm.count + 1]) == first)
        #expect(try first.map { try $0.encodeData() } == stored)
        let decoded = try WorkplaceEvent.decode(typeName: "workplace.reviewSubmitted", schemaVersion: 1, data: stored[0])
        #expect(decoded == SubmitReviewTests.reviewed())

        // A new review uses the form as it is now: its name, its questions in their order.
        let answers: [WorkplaceCommand.AnswerInput] = [
            .init(questionId: F.qRating, rating: 5), .init(questionId: F.qText, text: "Helpful"), .init(questionId: F.qNew, yes: false),
        ]
        let second = try D.given(log).when(F.submit(F.secondReview, answers: answers), F.by(F.ann)).get()
        guard case .reviewSubmitted(let review) = second.first else { Issue.record("no review"); return }
        #expect(review.formName == "Annual review")
        #expect(review.answers == [
            .init(questionId: F.qText, question: "What went well?", kind: .text, text: "Helpful"),
            .init(questionId: F.qNew, question: "Ready to lead?", kind: .yesNo, yes: false),
            .init(questionId: F.qRating, question: "How well do they work?", kind: .rating, rating: 5),
        ])
        // The old answers no longer fit the edited form.
        #expect(D.given(log).when(F.submit(F.secondReview), F.by(F.ann)).fields == ["answers", "answers"])
        log += second

        // Deleted: both reviews stay as they were; the form takes no more reviews.
        log += try D.given(log).when(.deleteForm(organisationId: F.acme, formId: F.yearly), F.by(F.ann)).get()
        #expect(log.contains(first[0]) && log.contains(second[0]))
        #expect(try first.map { try $0.encodeData() } == stored)
        #expect(D.given(log).when(F.submit(F.unknown, answers: answers), F.by(F.ann)).failure == .formNotFound)
    }
}
