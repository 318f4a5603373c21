import Accounts
import EventLog
import EventSourcing

/// Reset mails still worth sending, newest first (`mails`, keyed by inverted position), with
/// each account's entries (`byUser`, `<user>/<inverted position>`) so that a redemption or a
/// password change, after which no older link works, takes them out.
///
/// Expired mails stay until then: expiry is a matter of the reader's clock, not the log's.
public struct ResetOutboxProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.resetOutbox" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [AccountEvent.self] }
    /// `mails`: inverted position → mail; `byUser`: `<user>/<inverted position>` → mail key.
    public var tables: [String] { [Self.mails, Self.byUser] }

    static let mails = "mails"
    static let byUser = "byUser"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds reset requests in and takes them out on redemption or password change.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        switch try event.decoded(as: AccountEvent.self) {
        case .passwordResetRequested(let p)?:
            let mail = ResetMail(
                to: p.email, sealedToken: p.sealedToken, requestedAt: event.recordedAt, expiresAt: p.expiresAt,
                userId: p.userId, position: event.position)
            let key = ReadModelKeys.invertedPosition(event.position)
            try model.put(mail, at: key, in: Self.mails)
            try model.put(key, at: AccountKeys.userEntry(p.userId, position: event.position), in: Self.byUser)
        case .passwordResetRedeemed(let p)?:
            try removeAll(of: p.userId, model)
        case .passwordChanged(let p)?:
            try removeAll(of: p.userId, model)
        case .erased(let p)?:
            // A pending mail names the e-mail: it must not outlive the account.
            try removeAll(of: p.userId, model)
        default:
            break
        }
    }

    private func removeAll(of userId: String, _ model: ReadModelWriter) throws {
        for key in try model.keys(in: Self.byUser, prefix: AccountKeys.userPrefix(userId)) {
            if let mailKey = try model.value(String.self, at: key, in: Self.byUser) {
                try model.delete(mailKey, in: Self.mails)
            }
            try model.delete(key, in: Self.byUser)
        }
    }
}
