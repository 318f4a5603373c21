import EventSourcing

/// Stream and tag names of accounts, in one place so the decider, projections and the API agree.
public enum AccountNames {
    /// What an erased account's names read as, wherever they were shown.
    public static let deletedUser = PersonalDataSeal.deletedUser

    /// The account's stream, `account-<userId>`.
    public static func stream(_ userId: String) -> String { "account-\(userId)" }

    /// The tag every account event carries, `user:<userId>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// Tags of events claiming or releasing an e-mail: stored `email:<keyed hash>`, so the log's
    /// index does not hold the e-mail (ADR 0004).
    public static let emailTags = PersonalTag(prefix: "email:", purpose: "email")
    /// Tags of events claiming or releasing a username: stored `username:<keyed hash of the
    /// lowercased username>`.
    public static let usernameTags = PersonalTag(prefix: "username:", purpose: "username")
    /// The kinds of tag of account events that name personal values (`AccountEvent.personalTags`).
    public static let personalTags = [emailTags, usernameTags]

    /// The e-mail tag as the decider writes it, `email:<e-mail>`; `email` must already be
    /// normalised. The sealing step stores it keyed; events written before keyed tags carry it so.
    public static func emailTag(_ email: String) -> String { emailTags.plain(email) }

    /// The username tag as the decider writes it, `username:<lowercased>`; stored keyed.
    public static func usernameTag(_ username: String) -> String {
        usernameTags.plain(AccountRules.normaliseUsername(username))
    }
}
