/// What a user (through the API) asks of an account.
///
/// Every command names the account it is about, so its boundary can name the account's tag.
/// Secrets never appear: the API hashes passwords with bcrypt and tokens with SHA-256 and passes
/// only the hashes (and, for passwords, the plaintext's length, so the length rule is decided
/// here without the secret). Ids, tokens and expiry times arrive made; the decider makes none.
public enum AccountCommand: Sendable, Equatable {
    /// Create an account.
    case register(Register)
    /// Change any of the profile fields, the e-mail or the username.
    case updateProfile(UpdateProfile)
    /// Replace the password; the API has verified the current one.
    case changePassword(ChangePassword)
    /// Record a login; the API has checked the password.
    case startSession(StartSession)
    /// Log out one token.
    case endSession(EndSession)
    /// Ask for a reset token; the API has resolved the e-mail to this account.
    case requestPasswordReset(RequestPasswordReset)
    /// Use a reset token to set a new password.
    case redeemPasswordReset(RedeemPasswordReset)
    /// Show an uploaded image as the account's picture.
    case setAvatar(SetAvatar)
    /// Erase the account (GDPR art. 17); the API has verified the password.
    case erase(Erase)
    /// Mail a verification token for the account's current e-mail.
    case requestEmailVerification(RequestEmailVerification)
    /// Redeem a verification token.
    case verifyEmail(VerifyEmail)
    /// End every session that still works.
    case endAllSessions(EndAllSessions)

    /// The account the command is about.
    public var userId: String {
        switch self {
        case .register(let command): command.userId
        case .updateProfile(let command): command.userId
        case .changePassword(let command): command.userId
        case .startSession(let command): command.userId
        case .endSession(let command): command.userId
        case .requestPasswordReset(let command): command.userId
        case .redeemPasswordReset(let command): command.userId
        case .setAvatar(let command): command.userId
        case .erase(let command): command.userId
        case .requestEmailVerification(let command): command.userId
        case .verifyEmail(let command): command.userId
        case .endAllSessions(let command): command.userId
        }
    }
}
