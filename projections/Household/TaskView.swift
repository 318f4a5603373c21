import Foundation
import Household

/// A task as a room's task list shows it, with its priority at the time of the query.
public struct TaskView: Sendable, Equatable, Codable {
    /// The task's id.
    public var taskId: String
    /// The room it belongs to.
    public var roomId: String
    /// Its current name.
    public var name: String
    /// How often it is due.
    public var frequencyDays: Int
    /// What doing it earns now.
    public var points: Int
    /// When it was last done; nil when never.
    public var lastDoneAt: Date?
    /// Who did it last; nil when never.
    public var lastDoneBy: MemberView?
    /// How urgent it is at the query's `now`.
    public var priority: HouseholdPriority
}
