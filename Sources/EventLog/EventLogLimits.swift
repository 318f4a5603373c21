/// Hard limits of the log. Exceeding one is an `EventLogError.limitExceeded` the caller sees,
/// never a crash or a silent cut.
public struct EventLogLimits: Sendable, Equatable {
    /// Bytes of one event's JSON data.
    public var eventDataBytesMax = 1 << 20
    /// Events in one append.
    public var eventsPerAppendMax = 1_000
    /// Streams one append may carry expected versions for.
    public var expectedVersionsPerAppendMax = 100
    /// Bytes (UTF-8) of a stream id; keeps index keys under LMDB's 511-byte key limit.
    public var streamIDBytesMax = 200
    /// Bytes (UTF-8) of an event type.
    public var typeBytesMax = 128
    /// Bytes (UTF-8) of an actor.
    public var actorBytesMax = 128
    /// Bytes (UTF-8) of one tag.
    public var tagBytesMax = 200
    /// Tags on one event.
    public var tagsPerEventMax = 32
    /// Items (OR-ed alternatives) in an append condition's query, and types or tags in one item.
    public var queryTermsMax = 32
    /// Appends the writer thread puts into one transaction (one durable commit).
    public var appendsPerBatchMax = 1_024
    /// Events one read returns at most.
    public var readPageEventsMax = 1_000
    /// Record bytes after which a read page ends early (it always holds at least one event).
    /// Callers page on from the last event they got, so a short page loses nothing.
    public var readPageBytesMax = 16 << 20

    /// Bytes of a command fingerprint (`AppendMetadata.fingerprint`): a SHA-256 fits. Part of the
    /// `commands` value's format, so not adjustable.
    public static let fingerprintBytesMax = 32

    /// The default limits.
    public init() {}
}
