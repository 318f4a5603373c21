import EventLog

/// Why a command was not carried out. Nothing of it was written in any case.
public enum CommandFailure<Refusal: Error & Sendable & Equatable>: Error, Sendable, Equatable {
    /// The decider refused it.
    case rejected(Refusal)
    /// Other commands kept changing the boundary; it was decided `attempts` times and gave up.
    case contention(attempts: Int)
    /// The caller expected `streamID` at version `expected` (its `If-Match`), and the log holds
    /// `actual` (nil: no stream): the entity changed since the caller read it. Not retried.
    case preconditionFailed(streamID: String, expected: ExpectedVersion, actual: UInt64?)
    /// The idempotency key was first used by another actor or for another kind of command.
    case idempotencyKeyReused
    /// A stored event of the boundary could not be decoded: the domain's codec and the log disagree.
    case undecodableEvent(position: UInt64, type: String, reason: String)
    /// The log failed (limits, storage).
    case log(EventLogError)
    /// The personal-data keys could not be read or made (their store, shared on PostgreSQL, did
    /// not answer): the command's events could not be sealed, or its boundary's opened. Retry.
    case keysUnavailable(reason: String)
}
