import Workplace

extension WorkplaceOrganisationsProjection {
    /// Join requests and memberships. A member's row is removed when they leave; what they were
    /// reviewed with, and the news they posted, stay (those carry the names as they were).
    func applyMembership(_ event: WorkplaceEvent, _ model: ReadModelWriter) throws {
        switch event {
        case .joinRequested(let p):
            let request = JoinRequestView(
                userId: p.userId, name: p.name, employeeNumber: p.employeeNumber, locationId: p.locationId, requestedAt: p.requestedAt)
            try model.put(request, at: WorkplaceKeys.item(p.organisationId, p.userId), in: Self.requests)
        case .joinRequestAccepted(let p):
            let key = WorkplaceKeys.item(p.organisationId, p.userId)
            try model.delete(key, in: Self.requests)
            let member = OrganisationMember(
                userId: p.userId, name: p.name, employeeNumber: p.employeeNumber, locationId: p.locationId, admin: false)
            try model.put(member, at: key, in: Self.members)
            try model.put(p.organisationId, at: WorkplaceKeys.userOrganisation(p.userId, p.organisationId), in: Self.userOrganisations)
        case .joinRequestRejected(let p):
            try model.delete(WorkplaceKeys.item(p.organisationId, p.userId), in: Self.requests)
        case .memberChanged(let p):
            try model.update(OrganisationMember.self, at: WorkplaceKeys.item(p.organisationId, p.userId), in: Self.members) { member in
                member.locationId = p.locationId
                member.admin = p.admin
            }
        case .memberRemoved(let p):
            try model.delete(WorkplaceKeys.item(p.organisationId, p.userId), in: Self.members)
            try model.delete(WorkplaceKeys.userOrganisation(p.userId, p.organisationId), in: Self.userOrganisations)
        default:
            preconditionFailure("not a membership event: \(event.typeName)")
        }
    }
}
