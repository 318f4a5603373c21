import Foundation

/// An event as stored in the log.
public struct RecordedEvent: Sendable, Equatable {
    /// Global position: gap-free, strictly increasing, first event is 1.
    public let position: UInt64
    /// The stream, named `category-id`.
    public let streamID: String
    /// 0-based version within the stream.
    public let streamVersion: UInt64
    /// The event type.
    public let type: String
    /// The version of `data`'s schema.
    public let schemaVersion: UInt16
    /// When the log recorded it (UTC, microsecond precision, never decreasing along the log).
    public let recordedAt: Date
    /// Who caused it: a user id or `system`.
    public let actor: String
    /// The command that produced it.
    public let commandID: UUID
    /// The correlation id of the command.
    public let correlationID: UUID
    /// What caused the command, when known.
    public let causationID: UUID?
    /// Tags for queries and conditions.
    public let tags: [String]
    /// The JSON data.
    public let data: Data

    /// The category: the stream id up to its first `-`.
    public var category: String { StreamName.category(of: streamID) }
}
