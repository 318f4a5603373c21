import Accounts
import EventLog
import EventSourcing

/// Login credentials by normalised e-mail (`byEmail`), and each account's current e-mail
/// (`emails`), so that a password change, which names only the account, finds its entry.
public struct AccountCredentialsProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.credentials" }
    /// Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 2 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [AccountEvent.self] }
    /// `byEmail`: e-mail → credentials; `emails`: userId → e-mail.
    public var tables: [String] { [Self.byEmail, Self.emails] }

    static let byEmail = "byEmail"
    static let emails = "emails"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds registrations, e-mail changes and password changes; ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        switch try event.decoded(as: AccountEvent.self) {
        case .registered(let p)? where !p.email.isEmpty:
            // Empty: the account was erased (ADR 0004), and `erased` follows; nothing to log in with.
            try store(AccountCredentials(userId: p.userId, email: p.email, passwordHash: p.passwordHash), model)
        case .emailChanged(let p)? where !p.newEmail.isEmpty:
            guard var credentials = try credentials(of: p.userId, model) else { return }
            // Only the entry pointing at this account: the decider gives an e-mail to one account
            // at a time, but a read model must not delete another account's entry on a stray event.
            if try model.value(AccountCredentials.self, at: p.oldEmail, in: Self.byEmail)?.userId == p.userId {
                try model.delete(p.oldEmail, in: Self.byEmail)
            }
            credentials.email = p.newEmail
            try store(credentials, model)
        case .passwordChanged(let p)?:
            guard var credentials = try credentials(of: p.userId, model) else { return }
            credentials.passwordHash = p.passwordHash
            try store(credentials, model)
        case .erased(let p)?:
            // The e-mail logs nobody in any more, and may register again.
            guard let email = try model.value(String.self, at: p.userId, in: Self.emails) else { return }
            if try model.value(AccountCredentials.self, at: email, in: Self.byEmail)?.userId == p.userId {
                try model.delete(email, in: Self.byEmail)
            }
            try model.delete(p.userId, in: Self.emails)
        default:
            break
        }
    }

    private func credentials(of userId: String, _ model: ReadModelWriter) throws -> AccountCredentials? {
        guard let email = try model.value(String.self, at: userId, in: Self.emails) else { return nil }
        return try model.value(AccountCredentials.self, at: email, in: Self.byEmail)
    }

    private func store(_ credentials: AccountCredentials, _ model: ReadModelWriter) throws {
        try model.put(credentials, at: credentials.email, in: Self.byEmail)
        try model.put(credentials.email, at: credentials.userId, in: Self.emails)
    }
}
