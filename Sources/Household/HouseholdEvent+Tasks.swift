import EventSourcing
import Foundation

extension HouseholdEvent {
    /// `household.taskAdded`.
    public struct TaskAdded: HouseholdPayload {
        public static let typeName = "household.taskAdded"
        public var event: HouseholdEvent { .taskAdded(self) }
        public var entityTags: [String] { [HouseholdEvent.roomTag(roomId), HouseholdEvent.taskTag(taskId)] }

        /// The house.
        public var houseId: String
        /// The room the task belongs to.
        public var roomId: String
        /// The new task.
        public var taskId: String
        /// Trimmed, 1–100 characters.
        public var name: String
        /// How often it is due, 1–365 days.
        public var frequencyDays: Int
        /// What doing it earns, 1–100.
        public var points: Int
    }

    /// `household.taskEdited`: carries all fields as they are after the edit, changed or not,
    /// so readers replace the task instead of merging optionals.
    public struct TaskEdited: HouseholdPayload {
        public static let typeName = "household.taskEdited"
        public var event: HouseholdEvent { .taskEdited(self) }
        public var entityTags: [String] { [HouseholdEvent.roomTag(roomId), HouseholdEvent.taskTag(taskId)] }

        /// The house.
        public var houseId: String
        /// The task's room (unchanged: tasks do not move).
        public var roomId: String
        /// The task.
        public var taskId: String
        /// The name after the edit.
        public var name: String
        /// The frequency after the edit.
        public var frequencyDays: Int
        /// The points after the edit.
        public var points: Int
    }

    /// `household.taskRemoved`: completions stay in the history.
    public struct TaskRemoved: HouseholdPayload {
        public static let typeName = "household.taskRemoved"
        public var event: HouseholdEvent { .taskRemoved(self) }
        public var entityTags: [String] { [HouseholdEvent.roomTag(roomId), HouseholdEvent.taskTag(taskId)] }

        /// The house.
        public var houseId: String
        /// The room it was in, so a room's task list can drop it without a lookup.
        public var roomId: String
        /// The removed task.
        public var taskId: String
    }

    /// `household.taskCompleted`: denormalised on purpose (names as they were, points awarded)
    /// so the history and scoreboard need no joins and later edits do not rewrite the past.
    public struct TaskCompleted: HouseholdPayload {
        public static let typeName = "household.taskCompleted"
        public var event: HouseholdEvent { .taskCompleted(self) }
        public var entityTags: [String] { [HouseholdEvent.roomTag(roomId), HouseholdEvent.taskTag(taskId)] }

        /// The house.
        public var houseId: String
        /// The task done.
        public var taskId: String
        /// The task's name at the time.
        public var taskName: String
        /// The task's room.
        public var roomId: String
        /// The room's name at the time.
        public var roomName: String
        /// Who did it.
        public var userId: String
        /// Their display name at the time (as they joined the house).
        public var displayName: String
        /// The task's points at the time: what was awarded.
        public var points: Int
        /// When, from the command's metadata.
        public var completedAt: Date
    }
}
