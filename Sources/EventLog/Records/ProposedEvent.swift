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
    /// What the command asked, as a digest of at most `EventLogLimits.fingerprintBytesMax` bytes
    /// (a SHA-256 of a canonical encoding of it). Recorded with the command id: an append
    /// reusing the id with another fingerprint is refused (`commandIDReused`) instead of being
    /// answered as a retry of the first. Nil compares with nothing, as before fingerprints.
    public var fingerprint: Data?

    /// Metadata for a command; the correlation id defaults to the command id. The default command
    /// id is time-ordered, which keeps the `commands` index appending at its tail.
    public init(
        commandID: UUID = .timeOrdered(), correlationID: UUID? = nil, causationID: UUID? = nil, actor: String,
        fingerprint: Data? = nil
    ) {
        self.commandID = commandID
        self.correlationID = correlationID ?? commandID
        self.causationID = causationID
        self.actor = actor
        self.fingerprint = fingerprint
    }
}

/// One atomic append: its events all land, in order, or none does.
public struct AppendRequest: Sendable, Equatable {
    /// The events, appended in this order with consecutive positions. None records only the
    /// command (under the same conditions): a command that decided nothing, so that its retry is
    /// answered the same and its id cannot be taken for another command.
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
    /// The position of the append's first event; for an append of no events, one past
    /// `lastPosition`.
    public var firstPosition: UInt64
    /// The position of the append's last event; for an append of no events, the log's last
    /// position when it was recorded.
    public var lastPosition: UInt64
    /// True when the command id was already known and this is the first append's outcome again.
    public var isReplay: Bool
    /// For a replay, the fingerprint the first append recorded (nil when it carried none).
    public var fingerprint: Data?

    /// An outcome spanning `firstPosition...lastPosition` (empty when `firstPosition` is one past
    /// `lastPosition`).
    public init(firstPosition: UInt64, lastPosition: UInt64, isReplay: Bool = false, fingerprint: Data? = nil) {
        precondition(firstPosition >= 1 && firstPosition <= lastPosition + 1, "positions out of order")
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.isReplay = isReplay
        self.fingerprint = fingerprint
    }

    /// Events the append wrote.
    public var eventCount: Int { Int(lastPosition + 1 - firstPosition) }
}
