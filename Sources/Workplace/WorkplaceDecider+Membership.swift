import EventSourcing

extension WorkplaceDecider {
    /// Asking to join needs no membership, only an existing organisation and location.
    static func requestToJoin(
        _ organisationId: String, locationId: String, employeeNumber rawNumber: String, name rawName: String,
        metadata: CommandMetadata, state: WorkplaceState
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = try organisation(organisationId, in: state)
        guard organisation.locations[locationId] != nil else { throw .locationNotFound }
        var checks = FieldChecks()
        let employeeNumber = checks.employeeNumber(rawNumber)
        let name = checks.name(rawName, in: WorkplaceLimits.memberNameCharacters)
        try checks.check()
        let userId = metadata.actor
        guard organisation.members[userId] == nil else { throw .alreadyAMember }
        guard organisation.requests[userId] == nil else { throw .requestPending }
        guard organisation.members.count + organisation.requests.count < WorkplaceLimits.membersPerOrganisationMax
        else { throw .limitReached(.members) }
        return [.joinRequested(.init(
            organisationId: organisationId, userId: userId, locationId: locationId, employeeNumber: employeeNumber,
            name: name, requestedAt: metadata.now))]
    }

    static func acceptJoinRequest(
        _ userId: String, correction: WorkplaceCommand.JoinCorrection, admin acting: Acting, metadata: CommandMetadata
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        guard let request = acting.organisation.requests[userId] else { throw .joinRequestNotFound }
        let locationId = correction.locationId ?? request.locationId
        guard acting.organisation.locations[locationId] != nil else { throw .locationNotFound }
        var checks = FieldChecks()
        let name = correction.name.map { checks.name($0, in: WorkplaceLimits.memberNameCharacters) } ?? request.name
        let employeeNumber = correction.employeeNumber.map { checks.employeeNumber($0) } ?? request.employeeNumber
        try checks.check()
        return [.joinRequestAccepted(.init(
            organisationId: acting.organisationId, userId: userId, locationId: locationId, employeeNumber: employeeNumber,
            name: name, actorId: acting.actorId, acceptedAt: metadata.now))]
    }

    static func rejectJoinRequest(_ userId: String, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        guard acting.organisation.requests[userId] != nil else { throw .joinRequestNotFound }
        return [.joinRequestRejected(.init(organisationId: acting.organisationId, userId: userId, actorId: acting.actorId))]
    }

    static func changeMember(
        _ userId: String, locationId newLocationId: String?, isAdmin newIsAdmin: Bool?, admin acting: Acting
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = acting.organisation
        guard let member = organisation.members[userId] else { throw .memberNotFound }
        let locationId = newLocationId ?? member.locationId
        guard organisation.locations[locationId] != nil else { throw .locationNotFound }
        let isAdmin = newIsAdmin ?? member.isAdmin
        guard locationId != member.locationId || isAdmin != member.isAdmin else { return [] }
        // The organisation must keep someone who can accept, review and appoint admins.
        if member.isAdmin, !isAdmin, organisation.adminCount == 1 { throw .lastAdmin }
        return [.memberChanged(.init(
            organisationId: acting.organisationId, userId: userId, locationId: locationId, admin: isAdmin,
            actorId: acting.actorId))]
    }

    /// An admin removes a member, or a member removes themself: leaving.
    static func removeMember(_ userId: String, actor acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = acting.organisation
        guard userId == acting.actorId || acting.member.isAdmin else { throw .notAnAdmin }
        guard let member = organisation.members[userId] else { throw .memberNotFound }
        if member.isAdmin, organisation.adminCount == 1 { throw .lastAdmin }
        return [.memberRemoved(.init(organisationId: acting.organisationId, userId: userId, actorId: acting.actorId))]
    }
}
