import EventSourcing
import Foundation

/// What happened to an account: the storage format of the accounts domain (version with care).
///
/// Every event lives in `account-<userId>` and carries `user:<userId>`. Events that claim or
/// release an e-mail or username also carry its tag (`email:<keyed hash>`, `username:<keyed
/// hash>`, see `AccountNames`), old and new alike, so a uniqueness check that reads one tag sees
/// every change to its holder. E-mail, names, username and postcode are personal data, sealed
/// under the user's key in the stored JSON (`PersonalData`, ADR 0004).
/// No event holds a secret: passwords only as bcrypt hashes, tokens only as SHA-256 hashes, and a
/// reset token only sealed with a key the log never sees.
public enum AccountEvent: CataloguedEvent {
    /// Every stored type name starts `account.`.
    public static let domain = "account"

    /// An account was created.
    case registered(Registered)
    /// Display name, first or last name, or postcode changed.
    case profileUpdated(ProfileUpdated)
    /// The account moved to another e-mail, releasing the old one.
    case emailChanged(EmailChanged)
    /// The account chose a (new) username, releasing the old one if any.
    case usernameChanged(UsernameChanged)
    /// The password was replaced.
    case passwordChanged(PasswordChanged)
    /// A login succeeded and its token became valid.
    case sessionStarted(SessionStarted)
    /// A session's token stopped being valid (logout, or a password reset).
    case sessionEnded(SessionEnded)
    /// A password reset was asked for; its sealed token waits in the outbox for the mailer.
    case passwordResetRequested(PasswordResetRequested)
    /// A reset token was used to set a new password; no reset token of the account works after it.
    case passwordResetRedeemed(PasswordResetRedeemed)
    /// The profile shows another uploaded image as the account's picture.
    case avatarChanged(AvatarChanged)
    /// The account was erased: its sessions ended (events before this one), its e-mail and
    /// username released, and its personal data key destroyed right after (ADR 0004).
    case erased(Erased)
    /// A token to verify the account's e-mail was made; it waits in the outbox for the mailer.
    case emailVerificationRequested(EmailVerificationRequested)
    /// The account's current e-mail was verified with such a token.
    case emailVerified(EmailVerified)

    /// Every payload type, for decoding by stored type name.
    public static let catalogue = EventPayloadCatalogue<AccountEvent>([
        Registered.self, ProfileUpdated.self, EmailChanged.self, UsernameChanged.self, PasswordChanged.self,
        SessionStarted.self, SessionEnded.self, PasswordResetRequested.self, PasswordResetRedeemed.self,
        AvatarChanged.self, Erased.self, EmailVerificationRequested.self, EmailVerified.self,
    ])

    /// The case's payload.
    public var eventPayload: any EventPayload<AccountEvent> {
        switch self {
        case .registered(let p): p
        case .profileUpdated(let p): p
        case .emailChanged(let p): p
        case .usernameChanged(let p): p
        case .passwordChanged(let p): p
        case .sessionStarted(let p): p
        case .sessionEnded(let p): p
        case .passwordResetRequested(let p): p
        case .passwordResetRedeemed(let p): p
        case .avatarChanged(let p): p
        case .erased(let p): p
        case .emailVerificationRequested(let p): p
        case .emailVerified(let p): p
        }
    }

    /// The account the event is about.
    public var userId: String {
        switch self {
        case .registered(let payload): payload.userId
        case .profileUpdated(let payload): payload.userId
        case .emailChanged(let payload): payload.userId
        case .usernameChanged(let payload): payload.userId
        case .passwordChanged(let payload): payload.userId
        case .sessionStarted(let payload): payload.userId
        case .sessionEnded(let payload): payload.userId
        case .passwordResetRequested(let payload): payload.userId
        case .passwordResetRedeemed(let payload): payload.userId
        case .avatarChanged(let payload): payload.userId
        case .erased(let payload): payload.userId
        case .emailVerificationRequested(let payload): payload.userId
        case .emailVerified(let payload): payload.userId
        }
    }

    /// `account-<userId>`.
    public var streamID: String { AccountNames.stream(userId) }

    /// E-mail and username tags: stored keyed (`EventSealer`).
    public static var personalTags: [PersonalTag] { AccountNames.personalTags }

    /// `user:<userId>`, plus the e-mail and username tags the event claims or releases, plain.
    public var tags: [String] {
        var tags = [AccountNames.userTag(userId)]
        switch self {
        case .registered(let payload):
            tags.append(AccountNames.emailTag(payload.email))
            if let username = payload.username { tags.append(AccountNames.usernameTag(username)) }
        case .emailChanged(let payload):
            tags += [AccountNames.emailTag(payload.oldEmail), AccountNames.emailTag(payload.newEmail)]
        case .usernameChanged(let payload):
            if let old = payload.oldUsername { tags.append(AccountNames.usernameTag(old)) }
            tags.append(AccountNames.usernameTag(payload.newUsername))
        case .erased(let payload):
            tags += payload.releasedTags
        default:
            break
        }
        // A change of case only (`ann` → `Ann`) names the same tag twice; the log wants each once.
        var seen = Set<String>()
        return tags.filter { seen.insert($0).inserted }
    }
}
