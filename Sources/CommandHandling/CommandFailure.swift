import EventLog

/// Why a command was not carried out. Nothing of it was written in any case.
public enum CommandFailure<Refusal: Error & Sendable & Equatable>: Error, Sendable, Equatable {
    /// The decider refused it.
    case rejected(Refusal)
    /// Other commands kept changing the boundary; it was decided `attempts` times and gave up.
    case contention(attempts: Int)
    /// The idempotency key was first used by another actor or for another kind of command.
    case idempotencyKeyReused
    /// A stored event of the boundary could not be decoded: the domain's codec and the log disagree.
    case undecodableEvent(position: UInt64, type: String, reason: String)
    /// The log failed (limits, storage).
    case log(EventLogError)
}
