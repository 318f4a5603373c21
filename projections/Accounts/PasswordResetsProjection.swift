import Accounts
import EventLog
import EventSourcing

/// Password-reset tokens by the hex SHA-256 of the token (`resets`), and each account's pending
/// ones (`pending`, keyed `<user>/<token hash>`) so a password change can mark them used.
public struct PasswordResetsProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.passwordResets" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [AccountEvent.self] }
    /// `resets`: token hash → `StoredPasswordReset`; `pending`: `<user>/<token hash>` → token hash.
    public var tables: [String] { [Self.resets, Self.pending] }

    static let resets = "resets"
    static let pending = "pending"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds reset requests, redemptions and password changes; ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        switch try event.decoded(as: AccountEvent.self) {
        case .passwordResetRequested(let p)?:
            let reset = StoredPasswordReset(userId: p.userId, expiresAt: p.expiresAt, used: false, sealedToken: p.sealedToken)
            try model.put(reset, at: p.tokenHash.hex, in: Self.resets)
            try model.put(p.tokenHash.hex, at: AccountKeys.userPrefix(p.userId) + p.tokenHash.hex, in: Self.pending)
        case .passwordResetRedeemed(let p)?:
            try spendAll(of: p.userId, model)
        case .passwordChanged(let p)?:
            // As in the decider: a link mailed before the password changed must not undo it.
            try spendAll(of: p.userId, model)
        default:
            break
        }
    }

    private func spendAll(of userId: String, _ model: ReadModelWriter) throws {
        for key in try model.keys(in: Self.pending, prefix: AccountKeys.userPrefix(userId)) {
            if let hash = try model.value(String.self, at: key, in: Self.pending),
               var reset = try model.value(StoredPasswordReset.self, at: hash, in: Self.resets) {
                reset.used = true
                try model.put(reset, at: hash, in: Self.resets)
            }
            try model.delete(key, in: Self.pending)
        }
    }
}
