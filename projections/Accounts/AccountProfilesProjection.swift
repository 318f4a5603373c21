import Accounts
import EventLog
import EventSourcing

/// Every account's profile by user id (`profiles`).
public struct AccountProfilesProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.profiles" }
    /// Version 3: a profile says whether its e-mail is verified (version 2: values in the
    /// binary `ReadModelValue` form instead of JSON).
    public var version: Int { 3 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [AccountEvent.self] }
    /// `profiles`: userId → profile.
    public var tables: [String] { [Self.profiles] }

    static let profiles = "profiles"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds registrations, verifications and profile, e-mail, username and avatar changes;
    /// ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard let account = try event.decoded(as: AccountEvent.self) else { return }
        switch account {
        case .registered(let p):
            let profile = AccountProfile(
                userId: p.userId, email: p.email, displayName: p.displayName, firstName: p.firstName,
                lastName: p.lastName, username: p.username, postcode: p.postcode)
            try model.put(profile, at: p.userId, in: Self.profiles)
        case .emailChanged(let p):
            try update(p.userId, model) { profile in
                profile.email = p.newEmail
                profile.emailVerified = false
            }
        case .emailVerified(let p):
            try update(p.userId, model) { profile in
                if profile.email == p.email { profile.emailVerified = true }
            }
        case .usernameChanged(let p):
            try update(p.userId, model) { $0.username = p.newUsername }
        case .profileUpdated(let p):
            try update(p.userId, model) { profile in
                profile.displayName = p.displayName
                profile.firstName = p.firstName
                profile.lastName = p.lastName
                profile.postcode = p.postcode
            }
        case .erased(let p):
            // Nothing of it stays: no e-mail, name or postcode in the read model after erasure.
            try model.delete(p.userId, in: Self.profiles)
        case .avatarChanged(let p):
            try update(p.userId, model) { $0.avatarBlobId = p.blobId }
        case .passwordChanged, .sessionStarted, .sessionEnded, .passwordResetRequested, .passwordResetRedeemed,
             .emailVerificationRequested:
            break  // no profile field; not even read, as logins and logouts are most of these
        }
    }

    /// Changes a stored profile; the decider emits nothing for an account before its registration.
    private func update(_ userId: String, _ model: ReadModelWriter, _ change: (inout AccountProfile) -> Void) throws {
        try model.update(AccountProfile.self, at: userId, in: Self.profiles, change)
    }
}
