extension AccountCommand {
    /// Mail a new verification token for the account's current e-mail (SPEC Accounts).
    public struct RequestEmailVerification: Sendable, Equatable {
        /// The account, the caller's own.
        public var userId: String
        /// The token to mail.
        public var token: MailedToken

        /// A request for a verification mail.
        public init(userId: String, token: MailedToken) {
            self.userId = userId
            self.token = token
        }
    }

    /// Redeem a verification token: the e-mail it was mailed to is the account's, verified.
    public struct VerifyEmail: Sendable, Equatable {
        /// The account, the caller's own: a token verifies only for the account it was mailed for.
        public var userId: String
        /// SHA-256 of the token from the mail.
        public var tokenHash: TokenHash

        /// A redemption.
        public init(userId: String, tokenHash: TokenHash) {
            self.userId = userId
            self.tokenHash = tokenHash
        }
    }

    /// End every session of the account that still works (sign out everywhere).
    public struct EndAllSessions: Sendable, Equatable {
        /// The account, the caller's own.
        public var userId: String

        /// A sign-out everywhere.
        public init(userId: String) {
            self.userId = userId
        }
    }
}
