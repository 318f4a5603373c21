/// What a member asks of a house. Ids, join codes and the actor's display name are generated or
/// looked up by the caller, so deciding stays pure; the time arrives in `CommandMetadata`.
public enum HouseholdCommand: Sendable, Equatable {
    /// Founds a house with `userId` (the actor) as its first member. `userId` is in the command,
    /// not only in the metadata, so that `boundary(of:)` can include the actor's memberships.
    case createHouse(houseId: String, name: String, joinCode: String, userId: String, displayName: String)
    /// Joins the house whose current join code is `joinCode`. The API resolves the code to
    /// `houseId` through a read model, which may be stale, so the decider checks the code again.
    case joinHouse(houseId: String, joinCode: String, userId: String, displayName: String)
    /// The actor leaves; the last member out closes the house.
    case leaveHouse(houseId: String)
    /// Replaces the join code; the old one stops working at once.
    case rotateJoinCode(houseId: String, joinCode: String)
    /// Adds a room with a name unique in the house (ignoring case).
    case addRoom(houseId: String, roomId: String, name: String)
    /// Renames a room; the new name is unique in the house (ignoring case).
    case renameRoom(houseId: String, roomId: String, name: String)
    /// Removes a room and, first, each of its tasks.
    case removeRoom(houseId: String, roomId: String)
    /// Adds a recurring task to a room.
    case addTask(houseId: String, roomId: String, taskId: String, name: String, frequencyDays: Int, points: Int)
    /// Changes the given fields of a task; nil leaves a field as it is.
    case editTask(houseId: String, taskId: String, name: String?, frequencyDays: Int?, points: Int?)
    /// Removes a task; its completions stay in the history.
    case removeTask(houseId: String, taskId: String)
    /// The actor did the task now and earns its current points.
    case completeTask(houseId: String, taskId: String)

    /// The house every command is about.
    public var houseId: String {
        switch self {
        case .createHouse(let houseId, _, _, _, _), .joinHouse(let houseId, _, _, _),
             .leaveHouse(let houseId), .rotateJoinCode(let houseId, _),
             .addRoom(let houseId, _, _), .renameRoom(let houseId, _, _), .removeRoom(let houseId, _),
             .addTask(let houseId, _, _, _, _, _), .editTask(let houseId, _, _, _, _),
             .removeTask(let houseId, _), .completeTask(let houseId, _):
            houseId
        }
    }
}
