import Accounts
import Foundation

/// A password-reset token as the redemption route looks it up, by the SHA-256 of the token.
public struct StoredPasswordReset: Sendable, Equatable {
    /// The account the token resets.
    public var userId: String
    /// When the token stops working on its own.
    public var expiresAt: Date
    /// Whether the token can no longer be redeemed: it was, or the password changed since (the
    /// decider cancels every pending token then).
    public var used: Bool
    /// The token sealed with the server's key, as the outbox hands it to the mailer.
    public var sealedToken: SealedToken

    /// Whether the token can be redeemed at `now`, as far as the read model knows.
    public func isRedeemable(at now: Date) -> Bool {
        !used && expiresAt > now
    }
}

extension StoredPasswordReset: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(expiresAt)
        writer.write(used)
        writer.write(sealedToken)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        expiresAt = try reader.read()
        used = try reader.read()
        sealedToken = try reader.read()
    }
}
