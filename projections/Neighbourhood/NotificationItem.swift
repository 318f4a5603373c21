import Foundation

/// Something that happened to a report the user follows, done by someone else. Made when read,
/// from the report and the reply (`notifications` holds their keys).
public struct NotificationItem: Sendable, Equatable, Codable {
    /// What happened; `reply` is the only kind so far.
    public var kind: String
    /// The report it happened to.
    public var reportId: String
    /// The report's title, so a notification reads without fetching the report.
    public var reportTitle: String
    /// The reply.
    public var replyId: String
    /// Who replied, with their name at the time.
    public var from: NeighbourView
    /// When.
    public var createdAt: Date
}
