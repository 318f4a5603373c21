import EventSourcing

extension WorkplaceDecider {
    static func createForm(
        _ formId: String, name rawName: String, questions newQuestions: [WorkplaceCommand.NewQuestion], admin acting: Acting
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = acting.organisation
        var checks = FieldChecks()
        let name = checks.name(rawName, in: WorkplaceLimits.formNameCharacters)
        let bounds = 1...WorkplaceLimits.questionsPerFormMax
        if !bounds.contains(newQuestions.count) {
            checks.fail("questions", "must hold \(bounds.lowerBound) to \(bounds.upperBound) questions")
        }
        let questions = newQuestions.enumerated().map { index, question in
            checks.question(question, field: "questions[\(index)]")
        }
        try checks.check()
        let ids = [formId] + newQuestions.map(\.questionId)
        guard Set(ids).count == ids.count, organisation.usedIds.isDisjoint(with: ids) else { throw .idTaken }
        guard !organisation.hasLiveForm(named: name, except: nil) else { throw .formNameTaken }
        let liveForms = organisation.forms.values.count { !$0.isDeleted }
        guard liveForms < WorkplaceLimits.formsPerOrganisationMax else { throw .limitReached(.forms) }
        return [.formCreated(.init(
            organisationId: acting.organisationId, formId: formId, name: name, questions: questions,
            actorId: acting.actorId))]
    }

    static func renameForm(_ formId: String, name rawName: String, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        let form = try liveForm(formId, of: acting)
        var checks = FieldChecks()
        let name = checks.name(rawName, in: WorkplaceLimits.formNameCharacters)
        try checks.check()
        guard !acting.organisation.hasLiveForm(named: name, except: formId) else { throw .formNameTaken }
        guard name != form.name else { return [] }
        return [.formRenamed(.init(organisationId: acting.organisationId, formId: formId, name: name, actorId: acting.actorId))]
    }

    static func addQuestion(
        _ newQuestion: WorkplaceCommand.NewQuestion, to formId: String, admin acting: Acting
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        let form = try liveForm(formId, of: acting)
        var checks = FieldChecks()
        let question = checks.question(newQuestion, field: "")
        try checks.check()
        guard !acting.organisation.usedIds.contains(question.questionId) else { throw .idTaken }
        guard form.questions.count < WorkplaceLimits.questionsPerFormMax else { throw .limitReached(.questions) }
        return [.questionAdded(.init(organisationId: acting.organisationId, formId: formId, question: question, actorId: acting.actorId))]
    }

    /// The last question stays (`lastQuestion`): a form without questions could only produce
    /// reviews that say nothing, and creating one needs at least one question too.
    static func removeQuestion(_ questionId: String, from formId: String, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        let form = try liveForm(formId, of: acting)
        guard form.questions.contains(where: { $0.questionId == questionId }) else { throw .questionNotFound }
        guard form.questions.count > 1 else { throw .lastQuestion }
        return [.questionRemoved(.init(
            organisationId: acting.organisationId, formId: formId, questionId: questionId, actorId: acting.actorId))]
    }

    static func reorderQuestions(_ formId: String, questionIds: [String], admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        let form = try liveForm(formId, of: acting)
        let current = form.questions.map(\.questionId)
        // Exactly a permutation: a missing id would drop a question, a repeated or unknown one
        // would invent one.
        guard questionIds.count == current.count, Set(questionIds) == Set(current), Set(questionIds).count == questionIds.count else {
            throw .validationFailed([FieldError("questionIds", "must name every question of the form exactly once")])
        }
        guard questionIds != current else { return [] }
        return [.questionsReordered(.init(
            organisationId: acting.organisationId, formId: formId, questionIds: questionIds, actorId: acting.actorId))]
    }

    static func deleteForm(_ formId: String, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        _ = try liveForm(formId, of: acting)
        return [.formDeleted(.init(organisationId: acting.organisationId, formId: formId, actorId: acting.actorId))]
    }

    /// The live form `formId` of the acting organisation (`formNotFound`, also once deleted).
    static func liveForm(_ formId: String, of acting: Acting) throws(WorkplaceError) -> WorkplaceState.Form {
        guard let form = acting.organisation.liveForm(formId) else { throw .formNotFound }
        return form
    }
}
