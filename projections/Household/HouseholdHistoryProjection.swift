import EventLog
import EventSourcing
import Household

/// Every house's completed tasks (`history`), keyed `<house>/<inverted position>` so that a
/// house's history reads newest first as one forward prefix scan.
///
/// Completions stay after their task, room or house is removed: the history never forgets.
public struct HouseholdHistoryProjection: RowProjection {
    /// The stable name.
    public var name: String { "household.history" }
    /// Version 3: the completer's name as the log stores it (sealed), opened when read
    /// (`HouseholdRecord`). Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 3 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [HouseholdRecord.self] }
    /// `history`: `<house>/<inverted position>` → item.
    public var tables: [String] { [Self.history] }

    static let history = "history"

    /// A projection value; it holds no state.
    public init() {}

    /// An item for each `taskCompleted`; none for other events.
    public func rows(for event: ProjectedEvent, into rows: inout some ReadModelRowSink) throws {
        guard case .completion(let p)? = try event.decoded(as: HouseholdRecord.self) else { return }
        let item = HistoryItem(
            taskId: p.taskId, taskName: p.taskName, roomId: p.roomId, roomName: p.roomName, userId: p.userId,
            displayName: p.displayName, points: p.points, doneAt: p.completedAt, position: event.position)
        try rows.add(item, at: HouseholdKeys.history(house: p.houseId, position: event.position), in: Self.history)
    }
}
