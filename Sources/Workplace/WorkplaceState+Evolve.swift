extension WorkplaceState {
    /// The state after `event`. Total: events are facts already in the log, so an event about
    /// something this state has not seen is applied as far as it can be instead of refused.
    mutating func apply(_ event: WorkplaceEvent) {
        if case .organisationRegistered(let p) = event {
            var organisation = Organisation(organisationId: p.organisationId, name: p.name)
            for location in p.locations {
                organisation.locations[location.locationId] = Location(locationId: location.locationId, name: location.name)
                organisation.usedIds.insert(location.locationId)
            }
            if let first = p.locations.first {
                organisation.members[p.creatorId] = Member(
                    userId: p.creatorId, name: p.creatorName, employeeNumber: nil, locationId: first.locationId, isAdmin: true)
            }
            organisations[p.organisationId] = organisation
            return
        }
        organisations[event.organisationId]?.apply(event)
    }
}

extension WorkplaceState.Organisation {
    /// The organisation after `event`, which is one of its own.
    mutating func apply(_ event: WorkplaceEvent) {
        switch event {
        case .organisationRegistered:
            break  // handled by the state: it creates the organisation
        case .locationAdded(let p):
            locations[p.location.locationId] = .init(locationId: p.location.locationId, name: p.location.name)
            usedIds.insert(p.location.locationId)
        case .locationRenamed(let p):
            locations[p.location.locationId]?.name = p.location.name
        case .locationRemoved(let p):
            locations[p.locationId] = nil
        case .joinRequested(let p):
            requests[p.userId] = .init(
                userId: p.userId, locationId: p.locationId, employeeNumber: p.employeeNumber, name: p.name,
                requestedAt: p.requestedAt)
        case .joinRequestAccepted(let p):
            requests[p.userId] = nil
            members[p.userId] = .init(
                userId: p.userId, name: p.name, employeeNumber: p.employeeNumber, locationId: p.locationId, isAdmin: false)
        case .joinRequestRejected(let p):
            requests[p.userId] = nil
        case .memberChanged(let p):
            members[p.userId]?.locationId = p.locationId
            members[p.userId]?.isAdmin = p.admin
        case .memberRemoved(let p):
            members[p.userId] = nil
        case .formCreated(let p):
            forms[p.formId] = .init(formId: p.formId, name: p.name, questions: p.questions)
            usedIds.insert(p.formId)
            usedIds.formUnion(p.questions.map(\.questionId))
        case .formRenamed(let p):
            forms[p.formId]?.name = p.name
        case .questionAdded(let p):
            forms[p.formId]?.questions.append(p.question)
            usedIds.insert(p.question.questionId)
        case .questionRemoved(let p):
            forms[p.formId]?.questions.removeAll { $0.questionId == p.questionId }
        case .questionsReordered(let p):
            guard let questions = forms[p.formId]?.questions else { return }
            forms[p.formId]?.questions = p.reordering(questions, id: \.questionId)
        case .formDeleted(let p):
            forms[p.formId]?.isDeleted = true
        case .reviewSubmitted(let p):
            usedIds.insert(p.reviewId)
        case .newsPosted(let p):
            news[p.newsId] = .init(newsId: p.newsId, locationId: p.locationId)
            usedIds.insert(p.newsId)
        case .newsDeleted(let p):
            news[p.newsId]?.isDeleted = true
        }
    }
}
