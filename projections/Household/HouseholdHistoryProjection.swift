import EventLog
import EventSourcing
import Household

/// Every house's completed tasks (`history`), keyed `<house>/<inverted position>` so that a
/// house's history reads newest first as one forward prefix scan.
///
/// Completions stay after their task, room or house is removed: the history never forgets.
///
/// Each row is only where the completion is; `HouseholdQueries.history` reads the page's events
/// from the log (ADR 0009), which already holds every name as it was. A house's history grows
/// with every completion, so each transaction of a build dirties a page of nearly every house's
/// list: rows of the position alone make the table a fraction of its size.
public struct HouseholdHistoryProjection: RowProjection {
    /// The stable name.
    public var name: String { "household.history" }
    /// Version 4: the completion's position instead of an item. Version 3: the completer's name
    /// as the log stores it (sealed), opened when read (`HouseholdProjectionInput`). Version 2:
    /// values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 4 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [HouseholdProjectionInput.self] }
    /// `history`: `<house>/<inverted position>` → the completion's position.
    public var tables: [String] { [Self.history] }

    static let history = "history"

    /// A projection value; it holds no state.
    public init() {}

    /// A row for each `taskCompleted`; none for other events.
    public func rows(for event: ProjectedEvent, into rows: inout ReadModelRows) throws {
        guard case .completion(let p)? = try event.decoded(as: HouseholdProjectionInput.self) else { return }
        rows.add(event.position, at: HouseholdKeys.history(house: p.houseId, position: event.position), in: Self.history)
    }
}
