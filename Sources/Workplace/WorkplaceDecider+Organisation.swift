import EventSourcing

extension WorkplaceDecider {
    static func registerOrganisation(
        _ organisationId: String, name rawName: String, locations newLocations: [WorkplaceCommand.NewLocation],
        creatorName rawCreatorName: String, metadata: CommandMetadata, state: WorkplaceState
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        var checks = FieldChecks()
        let name = checks.name(rawName, in: WorkplaceLimits.organisationNameCharacters)
        let locations = checks.locations(newLocations)
        // The creator's display name is looked up by the caller, under the same bounds as a
        // member's name; checked all the same, since it becomes their name here.
        let creatorName = checks.name(rawCreatorName, in: WorkplaceLimits.memberNameCharacters, field: "creatorName")
        try checks.check()
        let locationIds = locations.map(\.locationId)
        guard state.organisations[organisationId] == nil, Set(locationIds).count == locationIds.count else { throw .idTaken }
        guard state.organisation(named: name, except: organisationId) == nil else { throw .organisationNameTaken }
        return [.organisationRegistered(.init(
            organisationId: organisationId, name: name, locations: locations, creatorId: metadata.actor,
            creatorName: creatorName, registeredAt: metadata.now))]
    }

    static func addLocation(_ location: WorkplaceCommand.NewLocation, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = acting.organisation
        var checks = FieldChecks()
        let name = checks.name(location.name, in: WorkplaceLimits.locationNameCharacters)
        try checks.check()
        guard !organisation.usedIds.contains(location.locationId) else { throw .idTaken }
        guard !organisation.hasLocation(named: name, except: nil) else { throw .locationNameTaken }
        guard organisation.locations.count < WorkplaceLimits.locationsPerOrganisationMax else { throw .limitReached(.locations) }
        return [.locationAdded(.init(
            organisationId: acting.organisationId, location: .init(locationId: location.locationId, name: name),
            actorId: acting.actorId))]
    }

    static func renameLocation(_ locationId: String, name rawName: String, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = acting.organisation
        guard let location = organisation.locations[locationId] else { throw .locationNotFound }
        var checks = FieldChecks()
        let name = checks.name(rawName, in: WorkplaceLimits.locationNameCharacters)
        try checks.check()
        // Its own name in another case is no clash: that is how a typo in the case is fixed.
        guard !organisation.hasLocation(named: name, except: locationId) else { throw .locationNameTaken }
        guard name != location.name else { return [] }
        return [.locationRenamed(.init(
            organisationId: acting.organisationId, location: .init(locationId: locationId, name: name), actorId: acting.actorId))]
    }

    static func removeLocation(_ locationId: String, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        let organisation = acting.organisation
        guard organisation.locations[locationId] != nil else { throw .locationNotFound }
        guard organisation.locations.count > 1 else { throw .lastLocation }
        // Members and requests name their location; removing it under them would leave them
        // nowhere. News posted there stays (it is history) and is still read by its id.
        let inUse = organisation.members.values.contains { $0.locationId == locationId }
            || organisation.requests.values.contains { $0.locationId == locationId }
        guard !inUse else { throw .locationInUse }
        return [.locationRemoved(.init(organisationId: acting.organisationId, locationId: locationId, actorId: acting.actorId))]
    }
}
