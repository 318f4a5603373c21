extension HouseholdState {
    /// The state after `event`. Total: events are facts already in the log, so an event about
    /// a house this state has not seen (another house's membership event in a `joinHouse`
    /// boundary) is applied as far as it can be instead of being refused.
    mutating func apply(_ event: HouseholdEvent) {
        switch event {
        case .houseCreated(let p):
            var house = House(houseId: p.houseId, name: p.name, joinCode: p.joinCode)
            house.members[p.creatorId] = Member(displayName: p.creatorDisplayName)
            houses[p.houseId] = house
            membershipsByUser[p.creatorId] = p.houseId
        case .memberJoined(let p):
            houses[p.houseId]?.members[p.userId] = Member(displayName: p.displayName)
            membershipsByUser[p.userId] = p.houseId
        case .memberLeft(let p):
            houses[p.houseId]?.members[p.userId] = nil
            if membershipsByUser[p.userId] == p.houseId { membershipsByUser[p.userId] = nil }
        case .houseClosed(let p):
            houses[p.houseId]?.isClosed = true
            houses[p.houseId]?.members = [:]
            // The last member's `memberLeft` came first; this only guards against a stray entry.
            membershipsByUser = membershipsByUser.filter { $0.value != p.houseId }
        case .joinCodeRotated(let p):
            houses[p.houseId]?.joinCode = p.joinCode
        case .roomAdded(let p):
            houses[p.houseId]?.rooms[p.roomId] = Room(name: p.name)
        case .roomRenamed(let p):
            houses[p.houseId]?.rooms[p.roomId]?.name = p.name
        case .roomRemoved(let p):
            houses[p.houseId]?.rooms[p.roomId] = nil
        case .taskAdded(let p):
            houses[p.houseId]?.tasks[p.taskId] = HouseTask(
                roomId: p.roomId, name: p.name, frequencyDays: p.frequencyDays, points: p.points)
        case .taskEdited(let p):
            houses[p.houseId]?.tasks[p.taskId] = HouseTask(
                roomId: p.roomId, name: p.name, frequencyDays: p.frequencyDays, points: p.points)
        case .taskRemoved(let p):
            houses[p.houseId]?.tasks[p.taskId] = nil
        case .taskCompleted(let p):
            houses[p.houseId]?.pointsByUser[p.userId, default: 0] += p.points
        }
    }
}
