import EventSourcing
import Foundation

extension AccountEvent {
    /// `account.passwordChanged`: the new hash. Pending reset tokens stop working with it.
    public struct PasswordChanged: AccountPayload {
        public static let typeName = "account.passwordChanged"
        public var event: AccountEvent { .passwordChanged(self) }

        /// The account.
        public var userId: String
        /// bcrypt; never the password.
        public var passwordHash: PasswordHash
    }

    /// `account.sessionStarted`: a token (by its hash) valid until `expiresAt`.
    public struct SessionStarted: AccountPayload {
        public static let typeName = "account.sessionStarted"
        public var event: AccountEvent { .sessionStarted(self) }

        /// The account.
        public var userId: String
        /// SHA-256 of the bearer token.
        public var tokenHash: TokenHash
        /// When the token stops working on its own.
        public var expiresAt: Date
    }

    /// `account.sessionEnded`: the token stopped working before it expired.
    public struct SessionEnded: AccountPayload {
        public static let typeName = "account.sessionEnded"
        public var event: AccountEvent { .sessionEnded(self) }

        /// The account.
        public var userId: String
        /// SHA-256 of the bearer token.
        public var tokenHash: TokenHash
    }

    /// `account.passwordResetRequested`: what the outbox needs to mail a reset link.
    public struct PasswordResetRequested: AccountPayload {
        public static let typeName = "account.passwordResetRequested"
        public var event: AccountEvent { .passwordResetRequested(self) }

        /// The account.
        public var userId: String
        /// SHA-256 of the reset token, to recognise it when redeemed.
        public var tokenHash: TokenHash
        /// The token sealed with the server's outbox key, for the mailer; opaque to the log.
        public var sealedToken: SealedToken
        /// When the token stops working.
        public var expiresAt: Date
        /// Where to send it: the account's e-mail at the time of the request.
        public var email: String
    }

    /// `account.passwordResetRedeemed`: the token was used. The new hash follows in
    /// `passwordChanged`, so credentials have one event to follow however a password changes.
    public struct PasswordResetRedeemed: AccountPayload {
        public static let typeName = "account.passwordResetRedeemed"
        public var event: AccountEvent { .passwordResetRedeemed(self) }

        /// The account.
        public var userId: String
        /// SHA-256 of the redeemed token.
        public var tokenHash: TokenHash
    }
}
