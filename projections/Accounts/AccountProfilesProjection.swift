import Accounts
import EventLog

/// Every account's profile by user id (`profiles`).
public struct AccountProfilesProjection: Projection {
    /// The stable name.
    public var name: String { "accounts.profiles" }
    /// Version 1.
    public var version: Int { 1 }
    /// `profiles`: userId → profile.
    public var tables: [String] { [Self.profiles] }

    static let profiles = "profiles"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds registrations and profile, e-mail and username changes; ignores other events.
    public func apply(_ event: RecordedEvent, to model: ReadModelWriter) throws {
        guard let account = try event.accountEvent() else { return }
        if case .registered(let p) = account {
            let profile = AccountProfile(
                userId: p.userId, email: p.email, displayName: p.displayName, firstName: p.firstName,
                lastName: p.lastName, username: p.username, postcode: p.postcode)
            try model.put(profile, at: p.userId, in: Self.profiles)
            return
        }
        // The decider emits nothing for an account before its registration.
        guard var profile = try model.value(AccountProfile.self, at: account.userId, in: Self.profiles) else { return }
        switch account {
        case .emailChanged(let p):
            profile.email = p.newEmail
        case .usernameChanged(let p):
            profile.username = p.newUsername
        case .profileUpdated(let p):
            profile.displayName = p.displayName
            profile.firstName = p.firstName
            profile.lastName = p.lastName
            profile.postcode = p.postcode
        case .registered, .passwordChanged, .sessionStarted, .sessionEnded, .passwordResetRequested, .passwordResetRedeemed:
            return
        }
        try model.put(profile, at: account.userId, in: Self.profiles)
    }
}
