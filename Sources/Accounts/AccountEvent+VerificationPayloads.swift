import EventSourcing
import Foundation

extension AccountEvent {
    /// `account.emailVerificationRequested`: what the outbox needs to mail a verification link
    /// to the account's e-mail of the time.
    public struct EmailVerificationRequested: AccountPayload {
        public static let typeName = "account.emailVerificationRequested"
        public var event: AccountEvent { .emailVerificationRequested(self) }

        /// The account.
        public var userId: String
        /// SHA-256 of the token, to recognise it when redeemed.
        public var tokenHash: TokenHash
        /// The token sealed with the server's outbox key, for the mailer; opaque to the log.
        public var sealedToken: SealedToken
        /// When the token stops working.
        public var expiresAt: Date
        /// The e-mail the token verifies, and where it is mailed: the account's at the time.
        public var email: String
    }

    /// `account.emailVerified`: the account's owner showed they receive mail at `email`, its
    /// current e-mail. From now on what was addressed to that e-mail (a photo group's invitation)
    /// is theirs to claim; a later e-mail change makes the account unverified again.
    public struct EmailVerified: AccountPayload {
        public static let typeName = "account.emailVerified"
        public var event: AccountEvent { .emailVerified(self) }

        /// The account.
        public var userId: String
        /// The verified e-mail, normalised.
        public var email: String
    }
}

extension AccountEvent.EmailVerificationRequested: PersonalData {
    public static let personalFields: [PersonalField<Self>] = [.text(\.email, of: \.userId, erased: "")]
}

extension AccountEvent.EmailVerified: PersonalData {
    public static let personalFields: [PersonalField<Self>] = [.text(\.email, of: \.userId, erased: "")]
}
