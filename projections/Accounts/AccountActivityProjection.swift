import EventLog
import EventSourcing

/// Every event by its actor (`activity`, keyed `<actor>/<inverted position>`), so that a user's
/// own audit trail reads newest first as one prefix scan. Events of every domain count; the
/// service's own (`system`) do not, as no one can ask for them here.
public struct AccountActivityProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.activity" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// `activity`: `<actor>/<inverted position>` → item.
    public var tables: [String] { [Self.activity] }

    static let activity = "activity"

    /// A projection value; it holds no state.
    public init() {}

    /// Stores the event under its actor; nothing for the system actor.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard event.actor != CommandMetadata.systemActor, !event.actor.isEmpty else { return }
        let item = ActivityItem(type: event.type, at: event.recordedAt, entity: event.streamID, position: event.position)
        try model.put(item, at: AccountKeys.userEntry(event.actor, position: event.position), in: Self.activity)
    }
}
