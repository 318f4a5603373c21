import Foundation

/// Something that happened to a report the user follows, done by someone else.
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

extension NotificationItem: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(kind)
        writer.write(reportId)
        writer.write(reportTitle)
        writer.write(replyId)
        writer.write(from)
        writer.write(createdAt)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        kind = try reader.read()
        reportId = try reader.read()
        reportTitle = try reader.read()
        replyId = try reader.read()
        from = try reader.read()
        createdAt = try reader.read()
    }
}
