import Accounts
import EventLog
import EventSourcing
import Foundation

/// Mails still worth sending, newest first (`mails`, keyed by inverted position), with each
/// account's entries (`byUser`, `<user>/<inverted position>`) so that what spends a link takes
/// its mails out: a redemption or a password change its reset links, a verification or an
/// e-mail change its verification links, an erasure all of them.
///
/// Expired mails stay until then: expiry is a matter of the reader's clock, not the log's.
/// The stored name is from when the outbox held reset links only.
public struct OutboxProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.resetOutbox" }
    /// Version 3: verification links beside reset links, each mail with its kind (version 2:
    /// values in the binary `ReadModelValue` form instead of JSON).
    public var version: Int { 3 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [AccountEvent.self] }
    /// `mails`: inverted position → mail; `byUser`: `<user>/<inverted position>` → mail key.
    public var tables: [String] { [Self.mails, Self.byUser] }

    static let mails = "mails"
    static let byUser = "byUser"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds reset and verification requests in and takes them out when spent.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        switch try event.decoded(as: AccountEvent.self) {
        case .passwordResetRequested(let p)?:
            try add(.passwordReset, to: p.email, sealedToken: p.sealedToken, expiresAt: p.expiresAt, userId: p.userId, event, model)
        case .emailVerificationRequested(let p)?:
            try add(.emailVerification, to: p.email, sealedToken: p.sealedToken, expiresAt: p.expiresAt, userId: p.userId, event, model)
        case .passwordResetRedeemed(let p)?:
            try remove([.passwordReset], of: p.userId, model)
        case .passwordChanged(let p)?:
            try remove([.passwordReset], of: p.userId, model)
        case .emailVerified(let p)?:
            try remove([.emailVerification], of: p.userId, model)
        case .emailChanged(let p)?:
            // A link to the old address verifies nothing now; the new one's request follows.
            try remove([.emailVerification], of: p.userId, model)
        case .erased(let p)?:
            // A pending mail names the e-mail: it must not outlive the account.
            try remove(OutboxMail.Kind.allCases, of: p.userId, model)
        default:
            break
        }
    }

    private func add(
        _ kind: OutboxMail.Kind, to email: String, sealedToken: SealedToken, expiresAt: Date, userId: String,
        _ event: ProjectedEvent, _ model: ReadModelWriter
    ) throws {
        let mail = OutboxMail(
            to: email, sealedToken: sealedToken, requestedAt: event.recordedAt, expiresAt: expiresAt, userId: userId,
            position: event.position, kind: kind)
        let key = ReadModelKeys.invertedPosition(event.position)
        try model.put(mail, at: key, in: Self.mails)
        try model.put(key, at: AccountKeys.userEntry(userId, position: event.position), in: Self.byUser)
    }

    private func remove(_ kinds: [OutboxMail.Kind], of userId: String, _ model: ReadModelWriter) throws {
        for key in try model.keys(in: Self.byUser, prefix: AccountKeys.userPrefix(userId)) {
            guard let mailKey = try model.value(String.self, at: key, in: Self.byUser) else { continue }
            if let mail = try model.value(OutboxMail.self, at: mailKey, in: Self.mails), !kinds.contains(mail.kind) { continue }
            try model.delete(mailKey, in: Self.mails)
            try model.delete(key, in: Self.byUser)
        }
    }
}
