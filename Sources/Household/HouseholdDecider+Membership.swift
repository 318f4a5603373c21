import EventSourcing

extension HouseholdDecider {
    static func createHouse(
        _ houseId: String, name rawName: String, joinCode: String, userId: String, displayName: String,
        actor: String, state: HouseholdState
    ) throws(HouseholdError) -> [HouseholdEvent] {
        guard userId == actor else { throw .actorMismatch }
        var checks = FieldChecks()
        let name = checks.name(rawName)
        checks.joinCode(joinCode)
        try checks.check()
        guard state.houses[houseId] == nil else { throw .idTaken }
        guard state.membershipsByUser[userId] == nil else { throw .alreadyInHouse }
        return [.houseCreated(.init(
            houseId: houseId, name: name, joinCode: joinCode, creatorId: userId, creatorDisplayName: displayName))]
    }

    static func joinHouse(
        _ houseId: String, joinCode: String, userId: String, displayName: String,
        actor: String, state: HouseholdState
    ) throws(HouseholdError) -> [HouseholdEvent] {
        guard userId == actor else { throw .actorMismatch }
        guard let house = state.openHouse(houseId) else { throw .houseNotFound }
        // The code is checked before anything about the joiner, so a wrong code learns nothing.
        guard house.joinCode == joinCode else { throw .wrongJoinCode }
        guard state.membershipsByUser[userId] == nil, house.members[userId] == nil else { throw .alreadyInHouse }
        guard house.members.count < HouseholdLimits.membersPerHouseMax else { throw .limitReached(.members) }
        return [.memberJoined(.init(houseId: houseId, userId: userId, displayName: displayName))]
    }

    static func leaveHouse(_ houseId: String, actor: String, state: HouseholdState)
        throws(HouseholdError) -> [HouseholdEvent]
    {
        let house = try house(houseId, memberActor: actor, in: state)
        let left = HouseholdEvent.memberLeft(.init(houseId: houseId, userId: actor))
        // A house without members could never be joined again by anyone who is not holding the
        // code, and nobody could rotate it: closing it is the only sensible end.
        guard house.members.count == 1 else { return [left] }
        return [left, .houseClosed(.init(houseId: houseId))]
    }

    static func rotateJoinCode(_ houseId: String, joinCode: String, actor: String, state: HouseholdState)
        throws(HouseholdError) -> [HouseholdEvent]
    {
        let house = try house(houseId, memberActor: actor, in: state)
        var checks = FieldChecks()
        checks.joinCode(joinCode)
        // Rotating to the same code would leave the old code working, which is the opposite of
        // what was asked; with random codes it only happens through a caller bug.
        if joinCode == house.joinCode { checks.fail("joinCode", "must differ from the current code") }
        try checks.check()
        return [.joinCodeRotated(.init(houseId: houseId, joinCode: joinCode))]
    }
}
