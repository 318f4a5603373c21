import Workplace

extension WorkplaceOrganisationsProjection {
    /// Review forms: the live ones only. A form is at most 50 questions, so each edit rewrites
    /// it whole.
    func applyForm(_ event: WorkplaceEvent, _ model: ReadModelWriter) throws {
        switch event {
        case .formCreated(let p):
            let form = ReviewFormView(formId: p.formId, name: p.name, questions: p.questions.map(ReviewFormQuestion.init))
            try model.put(form, at: WorkplaceKeys.item(p.organisationId, p.formId), in: Self.forms)
        case .formRenamed(let p):
            try changeForm(p.organisationId, p.formId, model) { $0.name = p.name }
        case .questionAdded(let p):
            try changeForm(p.organisationId, p.formId, model) { $0.questions.append(ReviewFormQuestion(p.question)) }
        case .questionRemoved(let p):
            try changeForm(p.organisationId, p.formId, model) { $0.questions.removeAll { $0.questionId == p.questionId } }
        case .questionsReordered(let p):
            try changeForm(p.organisationId, p.formId, model) { $0.questions = p.reordering($0.questions, id: \.questionId) }
        case .formDeleted(let p):
            try model.delete(WorkplaceKeys.item(p.organisationId, p.formId), in: Self.forms)
        default:
            preconditionFailure("not a form event: \(event.typeName)")
        }
    }

    private func changeForm(_ organisationId: String, _ formId: String, _ model: ReadModelWriter, _ change: (inout ReviewFormView) -> Void) throws {
        try model.update(ReviewFormView.self, at: WorkplaceKeys.item(organisationId, formId), in: Self.forms, change)
    }
}

extension ReviewFormQuestion {
    init(_ question: WorkplaceEvent.Question) {
        self.init(questionId: question.questionId, text: question.text, kind: question.kind)
    }
}
