/// The household read models, for the composition root to register with a `ProjectionEngine`
/// and for `HouseholdQueries` to read.
public enum HouseholdProjections {
    /// Houses, memberships and join codes.
    public static let houses = HouseholdHousesProjection()
    /// Rooms' tasks with their last completion.
    public static let tasks = HouseholdTasksProjection()
    /// Completed tasks, newest first.
    public static let history = HouseholdHistoryProjection()

    /// All of them.
    public static var all: [any Projection] { [houses, tasks, history] }
}
