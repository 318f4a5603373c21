import EventSourcing
import Testing
@testable import Workplace

/// Submitting a review: an admin reviews an accepted member with a live form, one answer per
/// question of the question's kind.
@Suite("Workplace submitting reviews")
struct SubmitReviewTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    func given(_ extra: [WorkplaceEvent] = []) -> Scenario<D> { D.given(F.withForm + extra) }

    static func reviewed(
        _ reviewId: String = F.review, formName: String = "Yearly review", questions: [WorkplaceEvent.Question] = F.questions,
        remark: String? = nil
    ) -> WorkplaceEvent {
        let values: [String: (Int?, Bool?, String?)] = [F.qRating: (4, nil, nil), F.qYes: (nil, true, nil), F.qText: (nil, nil, "Helpful")]
        let answers = questions.map { question in
            let value = values[question.questionId] ?? (nil, nil, nil)
            return WorkplaceEvent.Answer(questionId: question.questionId, question: question.text, kind: question.kind,
                                         rating: value.0, yes: value.1, text: value.2)
        }
        return .reviewSubmitted(.init(
            organisationId: F.acme, reviewId: reviewId, employeeId: F.bob, reviewerId: F.ann, reviewerName: "Ann Admin",
            formId: F.yearly, formName: formName, answers: answers, remark: remark, submittedAt: F.now))
    }

    @Test func anAdminReviewsAnEmployee() throws {
        let events = try given().when(F.submit(remark: "  Keep it up.\r\nThanks "), F.by(F.ann)).get()
        #expect(events == [Self.reviewed(remark: "Keep it up.\nThanks")])
        // The organisation, the reviewed employee, and the review and its form for an audit by their ids.
        #expect(events.first?.tags == [WorkplaceEvent.organisationTag(F.acme), WorkplaceEvent.userTag(F.bob), "review:\(F.review)", "form:\(F.yearly)"])
    }

    @Test func answersAreStoredInTheFormsOrderWhateverOrderTheyArriveIn() throws {
        let shuffled = Array(F.answers().reversed())
        #expect(try given().when(F.submit(answers: shuffled), F.by(F.ann)).get() == [Self.reviewed()])
    }

    @Test func anEmptyRemarkIsNone() throws {
        #expect(try given().when(F.submit(remark: "   "), F.by(F.ann)).get() == [Self.reviewed()])
        #expect(try given().when(F.submit(remark: ""), F.by(F.ann)).get() == [Self.reviewed()])
    }

    @Test func theReviewerNameIsTheReviewersMemberName() throws {
        let promoted = [F.changed(F.bob, at: F.depot, admin: true), F.accepted(F.cat)]
        let events = try given(promoted).when(F.submit(of: F.cat), F.by(F.bob)).get()
        guard case .reviewSubmitted(let review) = events.first else { Issue.record("no review"); return }
        #expect(review.reviewerId == F.bob && review.reviewerName == "Bob" && review.employeeId == F.cat)
    }

    @Test func onlyAcceptedMembersAreReviewed() {
        // Cat is pending, Dan an outsider, and Bob once removed is neither.
        for (events, employee) in [([], F.cat), ([], F.dan), ([F.removed(F.bob)], F.bob)] {
            let failure = given(events).when(F.submit(of: employee), F.by(F.ann)).failure
            #expect(failure == .memberNotFound, "\(employee)")
        }
    }

    @Test func theFormMustBeLive() {
        #expect(given().when(F.submit(with: F.quarterly), F.by(F.ann)).failure == .formNotFound)
        let deleted = WorkplaceEvent.formDeleted(.init(organisationId: F.acme, formId: F.yearly, actorId: F.ann))
        #expect(given([deleted]).when(F.submit(), F.by(F.ann)).failure == .formNotFound)
    }

    @Test func ratingsAreOneToFive() throws {
        for rating in [0, 6, -1, Int.max, Int.min] {
            let result = given().when(F.submit(answers: F.answers(rating: rating)), F.by(F.ann))
            #expect(result.fields == ["answers[0].rating"], "\(rating)")
            #expect(result.failure?.fieldErrors.first?.message == "must be from 1 to 5")
        }
        for rating in 1...5 {
            #expect(throws: Never.self) { try given().when(F.submit(answers: F.answers(rating: rating)), F.by(F.ann)).get() }
        }
    }

    @Test func missingDuplicateAndUnknownAnswersAreRefused() {
        let answers = F.answers()
        let missing = given().when(F.submit(answers: Array(answers.prefix(2))), F.by(F.ann))
        #expect(missing.fields == ["answers"])
        #expect(missing.failure?.fieldErrors.first?.message == "has no answer to question \(F.qText)")
        let duplicate = given().when(F.submit(answers: answers + [answers[1]]), F.by(F.ann))
        #expect(duplicate.fields == ["answers"])
        #expect(duplicate.failure?.fieldErrors.first?.message.contains("a second time") == true)
        let unknown = given().when(F.submit(answers: answers + [.init(questionId: F.unknown, yes: true)]), F.by(F.ann))
        #expect(unknown.fields == ["answers"])
        #expect(unknown.failure?.fieldErrors.first?.message.contains(F.unknown) == true)
        #expect(given().when(F.submit(answers: []), F.by(F.ann)).fields == ["answers", "answers", "answers"])
    }

    @Test func aRemovedQuestionIsUnknownAndAnAddedOneIsMissing() {
        let removed = WorkplaceEvent.questionRemoved(.init(organisationId: F.acme, formId: F.yearly, questionId: F.qYes, actorId: F.ann))
        #expect(given([removed]).when(F.submit(), F.by(F.ann)).fields == ["answers"])
        let added = WorkplaceEvent.questionAdded(.init(organisationId: F.acme, formId: F.yearly,
                                                       question: .init(questionId: F.qNew, text: "More?", kind: .yesNo), actorId: F.ann))
        #expect(given([added]).when(F.submit(), F.by(F.ann)).fields == ["answers"])
    }

    @Test func eachAnswerIsOfItsQuestionsKind() {
        let wrongKinds: [WorkplaceCommand.AnswerInput] = [
            .init(questionId: F.qRating, yes: true),
            .init(questionId: F.qYes, text: "yes"),
            .init(questionId: F.qText, rating: 3),
        ]
        let result = given().when(F.submit(answers: wrongKinds), F.by(F.ann))
        #expect(result.fields == ["answers[0].rating", "answers[1].yes", "answers[2].text"])
        #expect(result.failure?.fieldErrors.first?.message == "must be given for a rating question, instead of yes")
        let none: [WorkplaceCommand.AnswerInput] = [.init(questionId: F.qRating), .init(questionId: F.qYes), .init(questionId: F.qText)]
        #expect(given().when(F.submit(answers: none), F.by(F.ann)).fields == ["answers[0].rating", "answers[1].yes", "answers[2].text"])
    }

    @Test func anAnswerSetsOneValueOnly() {
        var answers = F.answers()
        answers[1].rating = 5
        let result = given().when(F.submit(answers: answers), F.by(F.ann))
        #expect(result.fields == ["answers[1]"])
        #expect(result.failure?.fieldErrors.first?.message == "must set only yes, the answer to a yesNo question, not rating and yes")
    }

    @Test func textsAreBoundedAndPlain() {
        #expect(given().when(F.submit(answers: F.answers(text: "  ")), F.by(F.ann)).fields == ["answers[2].text"])
        #expect(given().when(F.submit(answers: F.answers(text: F.huge)), F.by(F.ann)).fields == ["answers[2].text"])
        #expect(given().when(F.submit(answers: F.answers(text: "bell\u{7}")), F.by(F.ann)).fields == ["answers[2].text"])
        #expect(given().when(F.submit(remark: F.huge), F.by(F.ann)).fields == ["remark"])
        #expect(given().when(F.submit(answers: F.answers(rating: 9, text: F.huge), remark: F.huge), F.by(F.ann)).fields
                    == ["answers[0].rating", "answers[2].text", "remark"])
        #expect(throws: Never.self) {
            try given().when(F.submit(answers: F.answers(text: String(repeating: "t", count: 5_000)),
                                      remark: "Two\nlines\tand a tab"), F.by(F.ann)).get()
        }
    }

    @Test func aReviewIdIsNeverReused() throws {
        let first = try given().when(F.submit(), F.by(F.ann)).get()
        #expect(given(first).when(F.submit(), F.by(F.ann)).failure == .idTaken)
        #expect(throws: Never.self) { try given(first).when(F.submit(F.secondReview), F.by(F.ann)).get() }
    }

    @Test func anAdminMayBeReviewedByAnotherAdmin() throws {
        let promoted = [F.changed(F.bob, at: F.depot, admin: true)]
        #expect(try given(promoted).when(F.submit(of: F.ann), F.by(F.bob)).get().count == 1)
    }
}
