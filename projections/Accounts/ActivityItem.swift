import EventLog
import Foundation

/// One thing a user did: an event whose actor they are, from any domain.
public struct ActivityItem: Sendable, Equatable, Codable {
    /// The event type (`account.registered`, `household.taskCompleted`).
    public var type: String
    /// When the log recorded it.
    public var at: Date
    /// The stream it changed (`account-…`, `house-…`).
    public var entity: String
    /// Its log position: audit finds the event from here.
    public var position: UInt64
}

extension ActivityItem {
    /// What `record` says of itself: the read model keeps only where it is (ADR 0009).
    init(_ record: RecordedEvent) {
        self.init(type: record.type, at: record.recordedAt, entity: record.streamID, position: record.position)
    }
}

/// One page of a user's activity, newest first.
public struct ActivityPage: Sendable, Equatable, Codable {
    /// The items on this page.
    public var items: [ActivityItem]
    /// The cursor of the next page; nil when this page is the last.
    public var next: String?
}
