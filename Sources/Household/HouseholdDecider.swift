import EventSourcing

/// The household rules: who may do what to a house, its rooms and its tasks.
public enum HouseholdDecider: Decider {
    /// What a member asks.
    public typealias Command = HouseholdCommand
    /// What happened.
    public typealias Event = HouseholdEvent
    /// The house and the actor's memberships.
    public typealias State = HouseholdState
    /// Why a command is refused.
    public typealias Failure = HouseholdError

    /// No houses.
    public static let initialState = HouseholdState()

    /// The house's events; for `createHouse` and `joinHouse` also the actor's membership events
    /// in any house, so that two concurrent joins or creates by one user cannot both succeed.
    public static func boundary(of command: HouseholdCommand) -> Boundary {
        let house = Boundary.tag(HouseholdEvent.houseTag(command.houseId))
        switch command {
        case .createHouse(_, _, _, let userId, _), .joinHouse(_, _, let userId, _):
            return house.union(membershipBoundary(of: userId))
        default:
            return house
        }
    }

    /// Events that change whether `userId` is in a house. `houseClosed` carries no `user:` tag
    /// (its last member's `memberLeft` already does); it is named so the boundary says plainly
    /// which facts end a membership.
    public static func membershipBoundary(of userId: String) -> Boundary {
        let types = [HouseholdEvent.HouseCreated.typeName, HouseholdEvent.MemberJoined.typeName,
                     HouseholdEvent.MemberLeft.typeName, HouseholdEvent.HouseClosed.typeName]
        return Boundary([.init(types: types, tags: [HouseholdEvent.userTag(userId)])])
    }

    /// The state changed in place by `event`.
    public static func evolve(_ state: inout HouseholdState, _ event: HouseholdEvent) {
        state.apply(event)
    }

    /// The events `command` produces, none when it changes nothing, or the refusal.
    public static func decide(
        _ command: HouseholdCommand, state: HouseholdState, metadata: CommandMetadata
    ) throws(HouseholdError) -> [HouseholdEvent] {
        let actor = metadata.actor
        switch command {
        case let .createHouse(houseId, name, joinCode, userId, displayName):
            return try createHouse(houseId, name: name, joinCode: joinCode, userId: userId,
                                   displayName: displayName, actor: actor, state: state)
        case let .joinHouse(houseId, joinCode, userId, displayName):
            return try joinHouse(houseId, joinCode: joinCode, userId: userId,
                                 displayName: displayName, actor: actor, state: state)
        case let .leaveHouse(houseId):
            return try leaveHouse(houseId, actor: actor, state: state)
        case let .rotateJoinCode(houseId, joinCode):
            return try rotateJoinCode(houseId, joinCode: joinCode, actor: actor, state: state)
        case let .addRoom(houseId, roomId, name):
            return try addRoom(houseId, roomId: roomId, name: name, actor: actor, state: state)
        case let .renameRoom(houseId, roomId, name):
            return try renameRoom(houseId, roomId: roomId, name: name, actor: actor, state: state)
        case let .removeRoom(houseId, roomId):
            return try removeRoom(houseId, roomId: roomId, actor: actor, state: state)
        case let .addTask(houseId, roomId, taskId, name, frequencyDays, points):
            return try addTask(houseId, roomId: roomId, taskId: taskId, name: name,
                               frequencyDays: frequencyDays, points: points, actor: actor, state: state)
        case let .editTask(houseId, taskId, name, frequencyDays, points):
            return try editTask(houseId, taskId: taskId, name: name,
                                frequencyDays: frequencyDays, points: points, actor: actor, state: state)
        case let .removeTask(houseId, taskId):
            return try removeTask(houseId, taskId: taskId, actor: actor, state: state)
        case let .completeTask(houseId, taskId):
            return try completeTask(houseId, taskId: taskId, actor: actor, now: metadata.now, state: state)
        }
    }

    /// The open house `houseId` if `actor` is a member: every command but create and join
    /// starts here. An unknown or closed house is not-found before membership is considered.
    static func house(_ houseId: String, memberActor actor: String, in state: HouseholdState)
        throws(HouseholdError) -> HouseholdState.House
    {
        guard let house = state.openHouse(houseId) else { throw .houseNotFound }
        guard house.members[actor] != nil else { throw .notAMember }
        return house
    }
}
