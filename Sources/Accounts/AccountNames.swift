/// Stream and tag names of accounts, in one place so the decider, projections and the API agree.
public enum AccountNames {
    /// The account's stream, `account-<userId>`.
    public static func stream(_ userId: String) -> String { "account-\(userId)" }

    /// The tag every account event carries, `user:<userId>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// The tag of events claiming or releasing an e-mail; `email` must already be normalised.
    public static func emailTag(_ email: String) -> String { "email:\(email)" }

    /// The tag of events claiming or releasing a username, `username:<lowercased username>`.
    public static func usernameTag(_ username: String) -> String {
        "username:\(AccountRules.normaliseUsername(username))"
    }
}
