import Foundation

/// Who issues a command, when, and under which ids. Deciders are pure: the clock and the ids
/// arrive here instead of being read inside them.
public struct CommandMetadata: Sendable, Equatable {
    /// The user id issuing the command, or `system`.
    public var actor: String
    /// The service clock's time when the command arrived.
    public var now: Date
    /// The command's id (the `Idempotency-Key`, else fresh): a retry returns the first outcome.
    public var commandID: UUID
    /// Groups the commands of one user action or workflow.
    public var correlationID: UUID
    /// The command or event that caused this command, when there is one.
    public var causationID: UUID?
    /// What the command asks, as a digest of at most 32 bytes, when its id came from a client
    /// that may retry it (an `Idempotency-Key`). It must cover everything that makes the command
    /// this one: its kind and payload as the client gave them (not ids or hashes the service
    /// makes afresh for each attempt), its actor and its domain. Recorded with the command id,
    /// so a retry is told from another command under the same id (`idempotencyKeyReused`);
    /// even a command that decides nothing is then recorded, so its retry answers the same.
    public var fingerprint: Data?

    /// The actor for work the service does on its own (seeding, imports).
    public static let systemActor = "system"

    /// Metadata for a command; the correlation id defaults to the command id.
    public init(
        actor: String, now: Date, commandID: UUID, correlationID: UUID? = nil, causationID: UUID? = nil, fingerprint: Data? = nil
    ) {
        self.actor = actor
        self.now = now
        self.commandID = commandID
        self.correlationID = correlationID ?? commandID
        self.causationID = causationID
        self.fingerprint = fingerprint
    }
}
