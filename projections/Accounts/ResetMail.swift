import Accounts
import Foundation

/// A reset link waiting in the outbox for the operator's mailer.
public struct ResetMail: Sendable, Equatable, Codable {
    /// The address to send it to: the account's e-mail when the reset was asked for.
    public var to: String
    /// The reset token sealed with the server's key; the mailer unseals it into the link.
    public var sealedToken: SealedToken
    /// When the reset was asked for (the log's recorded-at).
    public var requestedAt: Date
    /// When the token stops working; a mail after that is pointless.
    public var expiresAt: Date
    /// The account.
    public var userId: String
    /// The log position of the request: a mailer can remember the last one it sent.
    public var position: UInt64
}
