import EventLog
import EventSourcing
import Household

/// Every open house's tasks (`tasks`) and when and by whom each was last done (`lastDone`), both
/// keyed `<house>/<room>/<task>` so that a room's tasks are one prefix scan of each.
public struct HouseholdTasksProjection: Projection {
    /// The stable name.
    public var name: String { "household.tasks" }
    /// Version 4: the last completer's name as the log stores it (sealed), opened when read
    /// (`HouseholdProjectionInput`). Version 3: the last completion in `lastDone`, out of the task's
    /// row, so that a completion is one write without a read (it was a get and a put of the
    /// whole task). Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 4 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [HouseholdProjectionInput.self] }
    /// `tasks`: `<house>/<room>/<task>` → `StoredTask`;
    /// `lastDone`: `<house>/<room>/<task>` → `TaskLastDone`, for a task done at least once.
    public var tables: [String] { [Self.tasks, Self.lastDone] }
    /// `lastDone`: `apply` only puts and removes its entries by key (a completion overwrites the
    /// one before), so its writes wait for the batch's end and are stored in key order.
    public var heldTables: Set<String> { [Self.lastDone] }

    static let tasks = "tasks"
    static let lastDone = "lastDone"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds a household task event into `tasks`; ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard let household = try event.decoded(as: HouseholdProjectionInput.self)?.event else { return }
        switch household {
        case .taskAdded(let p):
            let task = StoredTask(
                taskId: p.taskId, roomId: p.roomId, name: p.name, frequencyDays: p.frequencyDays, points: p.points)
            try model.put(task, at: HouseholdKeys.task(house: p.houseId, room: p.roomId, task: p.taskId), in: Self.tasks)
        case .taskEdited(let p):
            try update(house: p.houseId, room: p.roomId, task: p.taskId, model) { task in
                task.name = p.name
                task.frequencyDays = p.frequencyDays
                task.points = p.points
            }
        case .taskCompleted(let p):
            // Not read first: the decider completes only a task that is there, and a stray entry
            // would show nowhere (a room's list starts from `tasks`) and go with its room or house.
            let done = TaskLastDone(at: p.completedAt, by: MemberView(userId: p.userId, displayName: p.displayName))
            try model.put(done, at: HouseholdKeys.task(house: p.houseId, room: p.roomId, task: p.taskId), in: Self.lastDone)
        case .taskRemoved(let p):
            let key = HouseholdKeys.task(house: p.houseId, room: p.roomId, task: p.taskId)
            try model.delete(key, in: Self.tasks)
            try model.delete(key, in: Self.lastDone)
        case .roomRemoved(let p):
            // Its `taskRemoved` events came first; this only guards against a stray task.
            try deleteAll(prefix: HouseholdKeys.roomPrefix(house: p.houseId, room: p.roomId), model)
        case .houseClosed(let p):
            // No one can see a closed house's tasks again, so they need not take up space.
            try deleteAll(prefix: HouseholdKeys.housePrefix(p.houseId), model)
        case .houseCreated, .memberJoined, .memberLeft, .joinCodeRotated, .roomAdded, .roomRenamed:
            break
        }
    }

    /// Changes a stored task; an event for a task not stored (the decider emits none) is ignored.
    private func update(
        house houseId: String, room roomId: String, task taskId: String, _ model: ReadModelWriter,
        _ change: (inout StoredTask) -> Void
    ) throws {
        let key = HouseholdKeys.task(house: houseId, room: roomId, task: taskId)
        try model.update(StoredTask.self, at: key, in: Self.tasks, change)
    }

    private func deleteAll(prefix: String, _ model: ReadModelWriter) throws {
        for table in [Self.tasks, Self.lastDone] {
            for key in try model.keys(in: table, prefix: prefix) { try model.delete(key, in: table) }
        }
    }
}
