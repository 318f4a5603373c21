import EventLog
import EventSourcing
import Household

/// Every open house's tasks with when and by whom each was last done (`tasks`), keyed
/// `<house>/<room>/<task>` so that a room's tasks are one prefix scan.
public struct HouseholdTasksProjection: Projection {
    /// The stable name.
    public var name: String { "household.tasks" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// Only its domain's events reach it.
    public var reads: [any DomainEvent.Type]? { [HouseholdEvent.self] }
    /// `tasks`: `<house>/<room>/<task>` → task.
    public var tables: [String] { [Self.tasks] }

    static let tasks = "tasks"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds a household task event into `tasks`; ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard let household = try event.decoded(as: HouseholdEvent.self) else { return }
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
            try update(house: p.houseId, room: p.roomId, task: p.taskId, model) { task in
                task.lastDoneAt = p.completedAt
                task.lastDoneBy = MemberView(userId: p.userId, displayName: p.displayName)
            }
        case .taskRemoved(let p):
            try model.delete(HouseholdKeys.task(house: p.houseId, room: p.roomId, task: p.taskId), in: Self.tasks)
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
        for key in try model.keys(in: Self.tasks, prefix: prefix) { try model.delete(key, in: Self.tasks) }
    }
}
