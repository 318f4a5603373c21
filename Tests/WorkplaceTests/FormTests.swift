import EventSourcing
import Testing
@testable import Workplace

/// Review forms: created, renamed, their questions added, removed and reordered, and deleted.
@Suite("Workplace review forms")
struct FormTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    func create(_ name: String = " Yearly review ", id: String = F.yearly,
                questions: [WorkplaceCommand.NewQuestion] = FormTests.newQuestions) -> WorkplaceCommand {
        .createForm(organisationId: F.acme, formId: id, name: name, questions: questions)
    }

    static let newQuestions: [WorkplaceCommand.NewQuestion] = [
        .init(questionId: F.qRating, text: " How well do they work? ", kind: "rating"),
        .init(questionId: F.qYes, text: "Are they on time?", kind: "yesNo"),
        .init(questionId: F.qText, text: "What went well?", kind: "text"),
    ]

    func question(_ text: String = "Anything else?", kind: String = "text", id: String = F.qNew) -> WorkplaceCommand {
        .addQuestion(organisationId: F.acme, formId: F.yearly, question: .init(questionId: id, text: text, kind: kind))
    }

    func removeQuestion(_ questionId: String, form: String = F.yearly) -> WorkplaceCommand {
        .removeQuestion(organisationId: F.acme, formId: form, questionId: questionId)
    }

    func reorder(_ ids: [String]) -> WorkplaceCommand {
        .reorderQuestions(organisationId: F.acme, formId: F.yearly, questionIds: ids)
    }

    @Test func anAdminCreatesAForm() throws {
        let events = try D.given(F.organisation).when(create(), F.by(F.ann)).get()
        #expect(events == [F.formCreated()])
        #expect(D.fold(F.withForm).organisations[F.acme]?.liveForm(F.yearly)?.questions == F.questions)
    }

    @Test func creatingReportsEveryFieldProblemAtOnce() {
        let questions: [WorkplaceCommand.NewQuestion] = [
            .init(questionId: F.qRating, text: "Fine?", kind: "rating"),
            .init(questionId: F.qYes, text: F.huge, kind: "stars"),
            .init(questionId: F.qText, text: "  ", kind: "text"),
        ]
        let result = D.given(F.organisation).when(create("", questions: questions), F.by(F.ann))
        #expect(result.fields == ["name", "questions[1].text", "questions[1].kind", "questions[2].text"])
        #expect(result.failure?.fieldErrors.first { $0.field == "questions[1].kind" }?.message == "must be one of rating, yesNo, text")
    }

    @Test func aFormHasOneToFiftyQuestions() {
        #expect(D.given(F.organisation).when(create(questions: []), F.by(F.ann)).fields == ["questions"])
        let many = (0...WorkplaceLimits.questionsPerFormMax).map { WorkplaceCommand.NewQuestion(questionId: "q\($0)", text: "Q\($0)", kind: "yesNo") }
        #expect(D.given(F.organisation).when(create(questions: many), F.by(F.ann)).fields == ["questions"])
        #expect(throws: Never.self) {
            try D.given(F.organisation).when(create(questions: Array(many.dropLast())), F.by(F.ann)).get()
        }
    }

    @Test func formNamesAreUniqueAmongLiveFormsInAnyCase() throws {
        let taken = D.given(F.withForm).when(create("YEARLY REVIEW", id: F.quarterly, questions: []), F.by(F.ann)).failure
        // Fields first: the empty question list is reported before the clash.
        #expect(taken?.fieldErrors.map(\.field) == ["questions"])
        let clash = D.given(F.withForm).when(create("YEARLY REVIEW", id: F.quarterly, questions: [.init(questionId: F.qNew, text: "Q", kind: "text")]), F.by(F.ann)).failure
        #expect(clash == .formNameTaken && clash?.code == "form_name_taken" && clash?.kind == .conflict)
        // A deleted form's name is free again.
        let deleted = F.withForm + [.formDeleted(.init(organisationId: F.acme, formId: F.yearly, actorId: F.ann))]
        #expect(try D.given(deleted).when(create("Yearly review", id: F.quarterly, questions: [.init(questionId: F.qNew, text: "Q", kind: "text")]), F.by(F.ann)).get().count == 1)
    }

    @Test func formAndQuestionIdsAreNeverReused() {
        #expect(D.given(F.withForm).when(create("Other"), F.by(F.ann)).failure == .idTaken)
        let reusedQuestion = [WorkplaceCommand.NewQuestion(questionId: F.qRating, text: "Q", kind: "text")]
        #expect(D.given(F.withForm).when(create("Other", id: F.quarterly, questions: reusedQuestion), F.by(F.ann)).failure == .idTaken)
        let twice = [WorkplaceCommand.NewQuestion(questionId: F.qNew, text: "A", kind: "text"), .init(questionId: F.qNew, text: "B", kind: "text")]
        #expect(D.given(F.organisation).when(create("Other", id: F.quarterly, questions: twice), F.by(F.ann)).failure == .idTaken)
        #expect(D.given(F.withForm).when(question(id: F.qYes), F.by(F.ann)).failure == .idTaken)
    }

    @Test func formsStopAtTheLimit() {
        var events = F.organisation
        for index in 0..<WorkplaceLimits.formsPerOrganisationMax {
            events.append(.formCreated(.init(organisationId: F.acme, formId: "f\(index)", name: "F\(index)",
                                             questions: [.init(questionId: "q\(index)", text: "Q", kind: .text)], actorId: F.ann)))
        }
        #expect(D.given(events).when(create(), F.by(F.ann)).failure == .limitReached(.forms))
        // A deleted form no longer counts.
        events.append(.formDeleted(.init(organisationId: F.acme, formId: "f0", actorId: F.ann)))
        #expect(throws: Never.self) { try D.given(events).when(create(), F.by(F.ann)).get() }
    }

    @Test func anAdminRenamesAForm() throws {
        let rename = WorkplaceCommand.renameForm(organisationId: F.acme, formId: F.yearly, name: " Annual review ")
        let events = try D.given(F.withForm).when(rename, F.by(F.ann)).get()
        #expect(events == [.formRenamed(.init(organisationId: F.acme, formId: F.yearly, name: "Annual review", actorId: F.ann))])
        // Its own name in another case is fine; the same name changes nothing.
        let recased = WorkplaceCommand.renameForm(organisationId: F.acme, formId: F.yearly, name: "YEARLY review")
        #expect(try D.given(F.withForm).when(recased, F.by(F.ann)).get().count == 1)
        let same = WorkplaceCommand.renameForm(organisationId: F.acme, formId: F.yearly, name: "Yearly review")
        #expect(try D.given(F.withForm).when(same, F.by(F.ann)).get().isEmpty)
    }

    @Test func renamingRefusesAnotherFormsNameAndAnInvalidName() {
        let events = F.withForm + [F.formCreated(F.quarterly, name: "Quarterly", questions: [.init(questionId: F.qNew, text: "Q", kind: .text)])]
        let clash = WorkplaceCommand.renameForm(organisationId: F.acme, formId: F.quarterly, name: "yearly REVIEW")
        #expect(D.given(events).when(clash, F.by(F.ann)).failure == .formNameTaken)
        let long = WorkplaceCommand.renameForm(organisationId: F.acme, formId: F.yearly, name: String(repeating: "n", count: 101))
        #expect(D.given(events).when(long, F.by(F.ann)).fields == ["name"])
    }

    @Test func anAdminAddsAQuestionAtTheEnd() throws {
        let events = try D.given(F.withForm).when(question(" Anything else? "), F.by(F.ann)).get()
        let added = WorkplaceEvent.Question(questionId: F.qNew, text: "Anything else?", kind: .text)
        #expect(events == [.questionAdded(.init(organisationId: F.acme, formId: F.yearly, question: added, actorId: F.ann))])
        #expect(D.fold(F.withForm + events).organisations[F.acme]?.liveForm(F.yearly)?.questions == F.questions + [added])
    }

    @Test func anAddedQuestionIsChecked() {
        #expect(D.given(F.withForm).when(question(F.huge, kind: "essay"), F.by(F.ann)).fields == ["text", "kind"])
        #expect(D.given(F.withForm).when(question(String(repeating: "q", count: 501)), F.by(F.ann)).fields == ["text"])
        #expect(throws: Never.self) { try D.given(F.withForm).when(question(String(repeating: "q", count: 500)), F.by(F.ann)).get() }
    }

    @Test func questionsStopAtTheLimit() {
        var events = F.withForm
        for index in F.questions.count..<WorkplaceLimits.questionsPerFormMax {
            events.append(.questionAdded(.init(organisationId: F.acme, formId: F.yearly,
                                               question: .init(questionId: "q\(index)", text: "Q", kind: .yesNo), actorId: F.ann)))
        }
        #expect(D.given(events).when(question(), F.by(F.ann)).failure == .limitReached(.questions))
    }

    @Test func anAdminRemovesAQuestion() throws {
        let events = try D.given(F.withForm).when(removeQuestion(F.qYes), F.by(F.ann)).get()
        #expect(events == [.questionRemoved(.init(organisationId: F.acme, formId: F.yearly, questionId: F.qYes, actorId: F.ann))])
        #expect(D.fold(F.withForm + events).organisations[F.acme]?.liveForm(F.yearly)?.questions.map(\.questionId) == [F.qRating, F.qText])
        // Removed: removing it again is not-found.
        let again = D.given(F.withForm + events).when(removeQuestion(F.qYes), F.by(F.ann)).failure
        #expect(again == .questionNotFound && again?.code == "question_not_found" && again?.kind == .notFound)
    }

    @Test func theLastQuestionStays() {
        let single = F.organisation + [F.formCreated(questions: [F.questions[0]])]
        let failure = D.given(single).when(removeQuestion(F.qRating), F.by(F.ann)).failure
        #expect(failure == .lastQuestion && failure?.code == "last_question" && failure?.kind == .conflict)
    }

    @Test func anAdminReordersTheQuestions() throws {
        let order = [F.qText, F.qRating, F.qYes]
        let events = try D.given(F.withForm).when(reorder(order), F.by(F.ann)).get()
        #expect(events == [.questionsReordered(.init(organisationId: F.acme, formId: F.yearly, questionIds: order, actorId: F.ann))])
        #expect(D.fold(F.withForm + events).organisations[F.acme]?.liveForm(F.yearly)?.questions.map(\.questionId) == order)
        #expect(try D.given(F.withForm).when(reorder([F.qRating, F.qYes, F.qText]), F.by(F.ann)).get().isEmpty)
    }

    /// The decider never stores such an event, but the log is read as it is: a reorder that
    /// leaves questions out or names unknown ones keeps every question, the named first.
    @Test func aPartialReorderInTheLogKeepsTheQuestionsItLeavesOut() {
        let partial = WorkplaceEvent.QuestionsReordered(
            organisationId: F.acme, formId: F.yearly, questionIds: [F.qText, F.unknown], actorId: F.ann)
        let state = D.fold(F.withForm + [.questionsReordered(partial)])
        #expect(state.organisations[F.acme]?.liveForm(F.yearly)?.questions.map(\.questionId) == [F.qText, F.qRating, F.qYes])
    }

    @Test func aNewOrderIsExactlyAPermutation() {
        for ids in [[F.qText, F.qRating], [F.qText, F.qRating, F.qYes, F.qNew], [F.qText, F.qRating, F.qRating],
                    [F.qText, F.qRating, F.qNew], []] {
            #expect(D.given(F.withForm).when(reorder(ids), F.by(F.ann)).fields == ["questionIds"], "\(ids)")
        }
    }

    @Test func anAdminDeletesAFormOnce() throws {
        let delete = WorkplaceCommand.deleteForm(organisationId: F.acme, formId: F.yearly)
        let events = try D.given(F.withForm).when(delete, F.by(F.ann)).get()
        #expect(events == [.formDeleted(.init(organisationId: F.acme, formId: F.yearly, actorId: F.ann))])
        let after = F.withForm + events
        let again = D.given(after).when(delete, F.by(F.ann)).failure
        #expect(again == .formNotFound && again?.code == "form_not_found" && again?.kind == .notFound)
        // A deleted form accepts nothing.
        #expect(D.given(after).when(question(), F.by(F.ann)).failure == .formNotFound)
        #expect(D.given(after).when(removeQuestion(F.qYes), F.by(F.ann)).failure == .formNotFound)
        #expect(D.given(after).when(reorder([F.qText, F.qYes, F.qRating]), F.by(F.ann)).failure == .formNotFound)
        #expect(D.given(after).when(.renameForm(organisationId: F.acme, formId: F.yearly, name: "X"), F.by(F.ann)).failure == .formNotFound)
    }
}
