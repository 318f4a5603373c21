import Foundation

/// An event a command wants to append; the log assigns position, version and time.
public struct ProposedEvent: Sendable, Equatable {
    /// The stream, named `category-id`.
    public var streamID: String
    /// The event type, such as `household.taskCompleted`.
    public var type: String
    /// The version of `data`'s schema, so readers can upcast old shapes.
    public var schemaVersion: UInt16
    /// Tags for tag queries and append conditions, such as `email:ann@x.org`.
    public var tags: [String]
    /// The event's JSON data (UTF-8), stored as given.
    public var data: Data

    /// An event for `streamID` of `type` carrying `data`.
    public init(streamID: String, type: String, schemaVersion: UInt16 = 1, tags: [String] = [], data: Data) {
        self.streamID = streamID
        self.type = type
        self.schemaVersion = schemaVersion
        self.tags = tags
        self.data = data
    }
}

/// Who caused an append and under which command; shared by all its events.
public struct AppendMetadata: Sendable, Equatable {
    /// The command's id; a second append with the same id returns the first outcome.
    public var commandID: UUID
    /// Groups every command of one user action or workflow.
    public var correlationID: UUID
    /// The command or event that caused this one, when there is one.
    public var causationID: UUID?
    /// The user id that issued the command, or `system`.
    public var actor: String

    /// Metadata for a command; the correlation id defaults to the command id. The default command
    /// id is time-ordered, which keeps the `commands` index appending at its tail.
    public init(commandID: UUID = .timeOrdered(), correlationID: UUID? = nil, causationID: UUID? = nil, actor: String) {
        self.commandID = commandID
        self.correlationID = correlationID ?? commandID
        self.causationID = causationID
        self.actor = actor
    }
}

/// One atomic append: its events all land, in order, or none does.
public struct AppendRequest: Sendable, Equatable {
    /// The events, appended in this order with consecutive positions.
    public var events: [ProposedEvent]
    /// Per-stream expectations; the append fails unless every one holds.
    public var expectedVersions: [String: ExpectedVersion]
    /// An optional tag-query condition (dynamic consistency boundary).
    public var condition: AppendCondition?
    /// Command id, correlation, causation and actor.
    public var metadata: AppendMetadata
    /// The command whose events the decision behind this request already saw, though they were
    /// not yet durable: that command must have appended (earlier in the same batch, or before),
    /// and `condition` then holds from its last event on instead of from `condition.after`. One
    /// process chains the decisions queued on one boundary this way and submits them together,
    /// so they share one commit instead of waiting for one another's.
    public var follows: UUID?

    /// An append of `events` under the given conditions.
    public init(
        events: [ProposedEvent],
        expectedVersions: [String: ExpectedVersion] = [:],
        condition: AppendCondition? = nil,
        metadata: AppendMetadata,
        follows: UUID? = nil
    ) {
        self.events = events
        self.expectedVersions = expectedVersions
        self.condition = condition
        self.metadata = metadata
        self.follows = follows
    }
}

/// What a successful append produced.
public struct AppendResult: Sendable, Equatable {
    /// The position of the append's first event.
    public var firstPosition: UInt64
    /// The position of the append's last event.
    public var lastPosition: UInt64
    /// True when the command id was already known and this is the first append's outcome again.
    public var isReplay: Bool

    /// An outcome spanning `firstPosition...lastPosition`.
    public init(firstPosition: UInt64, lastPosition: UInt64, isReplay: Bool = false) {
        precondition(firstPosition >= 1 && firstPosition <= lastPosition, "positions out of order")
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.isReplay = isReplay
    }
}
