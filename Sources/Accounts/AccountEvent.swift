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

    /// The case's payload: the one switch over the cases, as only a macro could derive it (swift-syntax's build breaks the 10-minute first build).
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

    /// E-mail and username tags: stored keyed (`EventSealer`).
    public static var personalTags: [PersonalTag] { AccountNames.personalTags }

    /// `user:<userId>`, plus the e-mail and username tags the event claims or releases, plain.
    public var tags: [String] {
        // A change of case only (`ann` → `Ann`) names the same tag twice; the log wants each once.
        var seen = Set<String>()
        return eventPayload.tags.filter { seen.insert($0).inserted }
    }
}

/// What every account payload says: the account it is about, and the e-mail and username tags
/// it claims or releases.
public protocol AccountPayload: EventPayload<AccountEvent> {
    /// The account.
    var userId: String { get }
}

extension AccountPayload {
    /// `account-<userId>`.
    public var streamID: String { AccountNames.stream(userId) }
    /// `user:<userId>`: most events claim and release nothing.
    public var tags: [String] { [AccountNames.userTag(userId)] }
}
