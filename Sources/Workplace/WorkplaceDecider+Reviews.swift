import EventSourcing

extension WorkplaceDecider {
    /// An admin reviews an accepted member with a live form. The event is a snapshot (the form's
    /// name, each question's text and kind, in the form's order now), so that renaming the form,
    /// editing its questions or deleting it never changes a review already submitted.
    static func submitReview(
        _ review: WorkplaceCommand.SubmitReview, admin acting: Acting, metadata: CommandMetadata
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = acting.organisation
        // A pending request is not membership: only accepted members are reviewed.
        guard organisation.members[review.employeeId] != nil else { throw .memberNotFound }
        guard let form = organisation.liveForm(review.formId) else { throw .formNotFound }
        var checks = FieldChecks()
        let answers = checks.answers(review.answers, to: form.questions)
        let remark = review.remark.map { checks.text($0, in: WorkplaceLimits.remarkCharacters, field: "remark", kind: .multiLine) }
        try checks.check()
        guard !organisation.usedIds.contains(review.reviewId) else { throw .idTaken }
        return [.reviewSubmitted(.init(
            organisationId: acting.organisationId, reviewId: review.reviewId, employeeId: review.employeeId,
            reviewerId: acting.actorId, reviewerName: acting.member.name, formId: form.formId, formName: form.name,
            answers: answers, remark: remark?.isEmpty == false ? remark : nil, submittedAt: metadata.now))]
    }
}
