import EventLog
import EventSourcing

/// Every event by its actor (`activity`, keyed `<actor>/<inverted position>`), so that a user's
/// own audit trail reads newest first as one prefix scan. Events of every domain count; the
/// service's own (`system`) do not, as no one can ask for them here.
///
/// Each row is only where the event is; `AccountQueries.activity` reads the page's events from
/// the log (ADR 0009). Every user's list grows with every command they send, so on a server each
/// transaction of a build dirties a page of nearly every list, and its commit writes them all:
/// rows of the position alone (not the type, time and stream again) make the table a third of
/// its size.
public struct AccountActivityProjection: RowProjection {
    /// The stable name.
    public var name: String { "accounts.activity" }
    /// Version 3: the event's position instead of an item (version 2: values in the binary
    /// `ReadModelValue` form instead of JSON).
    public var version: Int { 3 }
    /// `activity`: `<actor>/<inverted position>` → the event's position.
    public var tables: [String] { [Self.activity] }

    static let activity = "activity"

    /// A projection value; it holds no state.
    public init() {}

    /// The event's position under its actor; none for the system actor.
    public func rows(for event: ProjectedEvent, into rows: inout ReadModelRows) throws {
        guard event.actor != CommandMetadata.systemActor, !event.actor.isEmpty else { return }
        rows.add(event.position, at: AccountKeys.userEntry(event.actor, position: event.position), in: Self.activity)
    }
}
