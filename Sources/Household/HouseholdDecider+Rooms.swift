import EventSourcing

extension HouseholdDecider {
    static func addRoom(_ houseId: String, roomId: String, name rawName: String, actor: String, state: HouseholdState)
        throws(HouseholdError) -> [HouseholdEvent]
    {
        let house = try house(houseId, memberActor: actor, in: state)
        var checks = FieldChecks()
        let name = checks.name(rawName)
        try checks.check()
        guard house.rooms[roomId] == nil else { throw .idTaken }
        guard !house.hasRoom(named: name, other: roomId) else { throw .roomNameTaken }
        guard house.rooms.count < HouseholdLimits.roomsPerHouseMax else { throw .limitReached(.rooms) }
        return [.roomAdded(.init(houseId: houseId, roomId: roomId, name: name))]
    }

    static func renameRoom(_ houseId: String, roomId: String, name rawName: String, actor: String, state: HouseholdState)
        throws(HouseholdError) -> [HouseholdEvent]
    {
        let house = try house(houseId, memberActor: actor, in: state)
        var checks = FieldChecks()
        let name = checks.name(rawName)
        try checks.check()
        guard let room = house.rooms[roomId] else { throw .roomNotFound }
        guard room.name != name else { return [] }
        // The room itself is excluded, so "kitchen" → "Kitchen" is a rename, not a clash.
        guard !house.hasRoom(named: name, other: roomId) else { throw .roomNameTaken }
        return [.roomRenamed(.init(houseId: houseId, roomId: roomId, name: name))]
    }

    /// Emits a `taskRemoved` for each of the room's tasks before `roomRemoved`, so every reader
    /// (task lists, priorities) handles task removal in one place, and no moment in the log has a
    /// task whose room is gone.
    static func removeRoom(_ houseId: String, roomId: String, actor: String, state: HouseholdState)
        throws(HouseholdError) -> [HouseholdEvent]
    {
        let house = try house(houseId, memberActor: actor, in: state)
        guard house.rooms[roomId] != nil else { throw .roomNotFound }
        let tasksRemoved = house.taskIds(inRoom: roomId).map { taskId in
            HouseholdEvent.taskRemoved(.init(houseId: houseId, roomId: roomId, taskId: taskId))
        }
        return tasksRemoved + [.roomRemoved(.init(houseId: houseId, roomId: roomId))]
    }
}

extension HouseholdState.House {
    /// Whether a room other than `roomId` is called `name`, ignoring case. `lowercased()` is
    /// Unicode's locale-independent mapping, so the answer does not depend on the server.
    func hasRoom(named name: String, other roomId: String) -> Bool {
        let folded = name.lowercased()
        return rooms.contains { $0.key != roomId && $0.value.name.lowercased() == folded }
    }
}
