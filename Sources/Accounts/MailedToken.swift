import Foundation

/// A token the service mails to an address (an e-mail verification link): its SHA-256, to
/// recognise it when redeemed, the token sealed for the outbox's mailer, and its expiry. The API
/// makes all three; the log holds no token in plain text.
public struct MailedToken: Sendable, Equatable {
    /// SHA-256 of the token.
    public var tokenHash: TokenHash
    /// The token sealed with a key the log never sees, for the mailer.
    public var sealedToken: SealedToken
    /// When the token stops working; after the command's `now`.
    public var expiresAt: Date

    /// A token for the outbox.
    public init(tokenHash: TokenHash, sealedToken: SealedToken, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.sealedToken = sealedToken
        self.expiresAt = expiresAt
    }
}
