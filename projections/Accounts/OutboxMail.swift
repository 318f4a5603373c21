import Accounts
import Foundation

/// A mail waiting in the outbox for the operator's mailer: a password-reset link or an e-mail
/// verification link, each with its token sealed.
public struct OutboxMail: Sendable, Equatable {
    /// What the link in a mail does: which page of the app the mailer points it at.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// `POST /v1/password-resets/{token}` sets a new password.
        case passwordReset
        /// `POST /v1/email-verifications/{token}` verifies the address it was sent to.
        case emailVerification
    }

    /// The address to send it to: the account's e-mail when the mail was asked for.
    public var to: String
    /// The token sealed with the server's key; the mailer unseals it into the link.
    public var sealedToken: SealedToken
    /// When it was asked for (the log's recorded-at).
    public var requestedAt: Date
    /// When the token stops working; a mail after that is pointless.
    public var expiresAt: Date
    /// The account.
    public var userId: String
    /// The log position of the request: a mailer can remember the last one it sent.
    public var position: UInt64
    /// Which link it carries.
    public var kind: Kind = .passwordReset
}

extension OutboxMail.Kind: ReadModelValue {}

extension OutboxMail: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(to)
        writer.write(sealedToken)
        writer.write(requestedAt)
        writer.write(expiresAt)
        writer.write(userId)
        writer.write(position)
        writer.write(kind)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        to = try reader.read()
        sealedToken = try reader.read()
        requestedAt = try reader.read()
        expiresAt = try reader.read()
        userId = try reader.read()
        position = try reader.read()
        kind = try reader.read()
    }
}
