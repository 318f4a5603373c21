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
            try changeForm(p.organisationId, p.formId, model) { form in
                // The decider names every question once; one it left out would keep its place
                // at the end rather than vanish.
                let byId = Dictionary(form.questions.map { ($0.questionId, $0) }, uniquingKeysWith: { first, _ in first })
                let ordered = p.questionIds.compactMap { byId[$0] }
                let named = Set(p.questionIds)
                form.questions = ordered + form.questions.filter { !named.contains($0.questionId) }
            }
        case .formDeleted(let p):
            try model.delete(WorkplaceKeys.item(p.organisationId, p.formId), in: Self.forms)
        default:
            preconditionFailure("not a form event: \(event.typeName)")
        }
    }

    private func changeForm(_ organisationId: String, _ formId: String, _ model: ReadModelWriter, _ change: (inout ReviewFormView) -> Void) throws {
        let key = WorkplaceKeys.item(organisationId, formId)
        guard var form = try model.value(ReviewFormView.self, at: key, in: Self.forms) else { return }
        change(&form)
        try model.put(form, at: key, in: Self.forms)
    }
}

extension ReviewFormQuestion {
    init(_ question: WorkplaceEvent.Question) {
        self.init(questionId: question.questionId, text: question.text, kind: question.kind)
    }
}
