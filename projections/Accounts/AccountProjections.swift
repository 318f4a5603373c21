/// The accounts read models, for the composition root to register with a `ProjectionEngine`
/// and for `AccountQueries` to read.
public enum AccountProjections {
    /// Login credentials by e-mail.
    public static let credentials = AccountCredentialsProjection()
    /// Sessions by token hash.
    public static let sessions = AccountSessionsProjection()
    /// Profiles by user id.
    public static let profiles = AccountProfilesProjection()
    /// Password-reset tokens by token hash.
    public static let passwordResets = PasswordResetsProjection()
    /// Reset mails for the operator's mailer, newest first.
    public static let outbox = OutboxProjection()
    /// Every user's own events, newest first.
    public static let activity = AccountActivityProjection()

    /// All of them.
    public static var all: [any Projection] { [credentials, sessions, profiles, passwordResets, outbox, activity] }
}
