import EventLog
import EventSourcing

/// Every event by its actor (`activity`, keyed `<actor>/<inverted position>`), so that a user's
/// own audit trail reads newest first as one prefix scan. Events of every domain count; the
/// service's own (`system`) do not, as no one can ask for them here.
public struct AccountActivityProjection: RowProjection {
    /// The stable name.
    public var name: String { "accounts.activity" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// `activity`: `<actor>/<inverted position>` → item.
    public var tables: [String] { [Self.activity] }

    static let activity = "activity"

    /// A projection value; it holds no state.
    public init() {}

    /// An item under the event's actor; none for the system actor.
    public func rows(for event: ProjectedEvent, into rows: inout some ReadModelRowSink) throws {
        guard event.actor != CommandMetadata.systemActor, !event.actor.isEmpty else { return }
        let item = ActivityItem(type: event.type, at: event.recordedAt, entity: event.streamID, position: event.position)
        try rows.add(item, at: AccountKeys.userEntry(event.actor, position: event.position), in: Self.activity)
    }
}
