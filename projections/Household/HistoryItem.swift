import Foundation

/// One completed task in a house's history. Names and points are as they were when it was
/// done: later renames and edits do not rewrite the past.
public struct HistoryItem: Sendable, Equatable, Codable {
    /// The task done (it may since have been removed).
    public var taskId: String
    /// The task's name at the time.
    public var taskName: String
    /// The room's id.
    public var roomId: String
    /// The room's name at the time.
    public var roomName: String
    /// Who did it.
    public var userId: String
    /// Their display name at the time, opened from the log's sealed copy by
    /// `HouseholdQueries.history` (ADR 0009).
    public var displayName: String
    /// The points awarded.
    public var points: Int
    /// When it was done.
    public var doneAt: Date
    /// The log position of the completion: audit can find the event from here.
    public var position: UInt64
}

/// One page of a house's history, newest first.
public struct HistoryPage: Sendable, Equatable, Codable {
    /// The completions on this page.
    public var items: [HistoryItem]
    /// The cursor of the next page; nil when this page is the last.
    public var next: String?
}
