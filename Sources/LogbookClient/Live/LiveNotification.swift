import Foundation

/// One change the server announced on `/v1/live`: which event, where in the log, under which
/// of the topics asked for. Nothing of its content: re-fetch what it is about.
public struct LiveNotification: Sendable, Equatable, Codable {
    public var topic: String
    /// The event type, such as `household.taskCompleted`.
    public var type: String
    /// The event's log position: its SSE id, increasing along a stream.
    public var position: UInt64

    public init(topic: String, type: String, position: UInt64) {
        self.topic = topic
        self.type = type
        self.position = position
    }
}

/// What a live stream goes through, for watched queries: they fetch on each connection (the
/// first one, or after one that gave no notification to resume from) and mark their values
/// stale while it is down.
enum LiveEvent: Sendable {
    case connected
    case notification(LiveNotification)
    case disconnected(any Error)
}
