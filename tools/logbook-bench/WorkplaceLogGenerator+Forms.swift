import Foundation
import Workplace

/// Creating review forms and editing them: renames, questions added, removed and reordered, deletions.
extension WorkplaceLogGenerator {
    /// A question of a random kind with a text that suits it.
    mutating func newQuestion(_ o: inout WorkplaceLogOrganisation) -> WorkplaceLogOrganisation.Question {
        let kind = QuestionKind.allCases.randomElement(using: &random)!
        let texts = switch kind {
        case .rating: Self.ratingQuestions
        case .yesNo: Self.yesNoQuestions
        case .text: Self.textQuestions
        }
        return .init(questionId: "q\(o.index)-\(o.nextSerial())", text: texts.randomElement(using: &random)!, kind: kind)
    }

    /// A form name no other form of the organisation has.
    mutating func formName(_ o: inout WorkplaceLogOrganisation) -> String {
        "\(Self.formNames.randomElement(using: &random)!) \(o.nextSerial())"
    }

    /// An admin creates a form of three to eight questions; nil once the organisation has enough.
    mutating func createForm(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        guard o.forms.count < Self.formsPerOrganisationMax else { return nil }
        let admin = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        var questions: [WorkplaceLogOrganisation.Question] = []
        for _ in 0..<Int.random(in: Self.questionsPerFormMin...8, using: &random) { questions.append(newQuestion(&o)) }
        let form = WorkplaceLogOrganisation.Form(formId: "f\(o.index)-\(o.nextSerial())", name: formName(&o), questions: questions)
        o.forms.append(form)
        return Step(
            command: .createForm(organisationId: o.organisationId, formId: form.formId, name: form.name, questions: questions.map(\.asked)),
            actor: admin, now: now)
    }

    /// An admin creates, renames, edits the questions of or deletes a form; nil when the pick
    /// does not apply (a full form, a form at its fewest questions, the last form).
    mutating func editForm(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        let roll = Int.random(in: 0..<20, using: &random)
        if roll < 3 || o.forms.isEmpty { return createForm(&o, now: now) }
        let admin = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        let position = Int.random(in: 0..<o.forms.count, using: &random)
        let form = o.forms[position]
        let (organisationId, formId) = (o.organisationId, form.formId)
        switch roll {
        case 3..<6:
            let name = formName(&o)
            o.forms[position].name = name
            return Step(command: .renameForm(organisationId: organisationId, formId: formId, name: name), actor: admin, now: now)
        case 6..<10:
            guard form.questions.count < Self.questionsPerFormMax else { return nil }
            let question = newQuestion(&o)
            o.forms[position].questions.append(question)
            return Step(command: .addQuestion(organisationId: organisationId, formId: formId, question: question.asked), actor: admin, now: now)
        case 10..<14:
            guard form.questions.count > Self.questionsPerFormMin else { return nil }
            let questionId = o.forms[position].questions.remove(at: Int.random(in: 0..<form.questions.count, using: &random)).questionId
            return Step(command: .removeQuestion(organisationId: organisationId, formId: formId, questionId: questionId), actor: admin, now: now)
        case 14..<18:
            // A rotation, so the order always changes.
            let shift = Int.random(in: 1..<form.questions.count, using: &random)
            let questions = Array(form.questions[shift...] + form.questions[..<shift])
            o.forms[position].questions = questions
            return Step(command: .reorderQuestions(organisationId: organisationId, formId: formId, questionIds: questions.map(\.questionId)),
                        actor: admin, now: now)
        default:
            guard o.forms.count > 1 else { return nil }
            o.forms.remove(at: position)
            return Step(command: .deleteForm(organisationId: organisationId, formId: formId), actor: admin, now: now)
        }
    }
}
