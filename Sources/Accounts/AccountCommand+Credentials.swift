import Foundation

extension AccountCommand {
    /// Replace the password. The API verified the current password before building this. Every
    /// other session of the account ends: whoever held one may have known the old password.
    public struct ChangePassword: Sendable, Equatable {
        /// The account, the caller's own.
        public var userId: String
        /// bcrypt of the new password.
        public var newPasswordHash: PasswordHash
        /// Characters in the new plaintext password, for `PasswordPolicy`.
        public var newPasswordLength: Int
        /// The session that asked for the change, which stays; nil ends every session.
        public var keepingSession: TokenHash?

        /// A password change.
        public init(userId: String, newPasswordHash: PasswordHash, newPasswordLength: Int, keepingSession: TokenHash? = nil) {
            self.userId = userId
            self.newPasswordHash = newPasswordHash
            self.newPasswordLength = newPasswordLength
            self.keepingSession = keepingSession
        }
    }

    /// Record a login: the token (by hash) works until `expiresAt`.
    public struct StartSession: Sendable, Equatable {
        /// The account that logged in.
        public var userId: String
        /// SHA-256 of the new bearer token.
        public var tokenHash: TokenHash
        /// When the token expires; after the command's `now`.
        public var expiresAt: Date

        /// A login.
        public init(userId: String, tokenHash: TokenHash, expiresAt: Date) {
            self.userId = userId
            self.tokenHash = tokenHash
            self.expiresAt = expiresAt
        }
    }

    /// Log out one token. Ending an unknown, ended or expired token does nothing.
    public struct EndSession: Sendable, Equatable {
        /// The account, the caller's own.
        public var userId: String
        /// SHA-256 of the bearer token to end.
        public var tokenHash: TokenHash

        /// A logout.
        public init(userId: String, tokenHash: TokenHash) {
            self.userId = userId
            self.tokenHash = tokenHash
        }
    }

    /// Ask for a reset token. For an unknown e-mail the API answers 202 without a command.
    public struct RequestPasswordReset: Sendable, Equatable {
        /// The account the e-mail belongs to.
        public var userId: String
        /// SHA-256 of the reset token.
        public var tokenHash: TokenHash
        /// The token sealed for the outbox's mailer.
        public var sealedToken: SealedToken
        /// When the token expires; after the command's `now`.
        public var expiresAt: Date

        /// A reset request.
        public init(userId: String, tokenHash: TokenHash, sealedToken: SealedToken, expiresAt: Date) {
            self.userId = userId
            self.tokenHash = tokenHash
            self.sealedToken = sealedToken
            self.expiresAt = expiresAt
        }
    }

    /// Set a new password with a reset token; every active session of the account ends.
    public struct RedeemPasswordReset: Sendable, Equatable {
        /// The account the token was issued for (the API looks it up by the token's hash).
        public var userId: String
        /// SHA-256 of the reset token.
        public var tokenHash: TokenHash
        /// bcrypt of the new password.
        public var newPasswordHash: PasswordHash
        /// Characters in the new plaintext password, for `PasswordPolicy`.
        public var newPasswordLength: Int

        /// A redemption.
        public init(userId: String, tokenHash: TokenHash, newPasswordHash: PasswordHash, newPasswordLength: Int) {
            self.userId = userId
            self.tokenHash = tokenHash
            self.newPasswordHash = newPasswordHash
            self.newPasswordLength = newPasswordLength
        }
    }
}
