import EventSourcing

/// Stream and tag names of accounts, in one place so the decider, projections and the API agree.
public enum AccountNames {
    /// What an erased account's names read as, wherever they were shown.
    public static let deletedUser = PersonalDataSeal.deletedUser

    /// The account's stream, `account-<userId>`.
    public static func stream(_ userId: String) -> String { "account-\(userId)" }

    /// The tag every account event carries, `user:<userId>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// The tag of events claiming or releasing an e-mail, `email:<keyed hash>`, so the log's
    /// index does not hold the e-mail (ADR 0004); `email` must already be normalised. Without a
    /// keyring in effect (pure code, tests) the tag is `plainEmailTag`.
    public static func emailTag(_ email: String) -> String {
        guard let keyring = PersonalDataKeys.current else { return plainEmailTag(email) }
        return "email:" + keyring.blindTag("email", email)
    }

    /// The tag of events claiming or releasing a username, `username:<keyed hash of the
    /// lowercased username>`; `plainUsernameTag` without a keyring.
    public static func usernameTag(_ username: String) -> String {
        guard let keyring = PersonalDataKeys.current else { return plainUsernameTag(username) }
        return "username:" + keyring.blindTag("username", AccountRules.normaliseUsername(username))
    }

    /// The e-mail tag as events written before keyed tags carry it, `email:<e-mail>`: uniqueness
    /// checks read it too, so an account from before still holds its e-mail.
    public static func plainEmailTag(_ email: String) -> String { "email:\(email)" }

    /// The username tag as events written before keyed tags carry it, `username:<lowercased>`.
    public static func plainUsernameTag(_ username: String) -> String {
        "username:\(AccountRules.normaliseUsername(username))"
    }
}
