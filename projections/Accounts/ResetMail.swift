import Accounts
import Foundation

/// A reset link waiting in the outbox for the operator's mailer.
public struct ResetMail: Sendable, Equatable {
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

extension ResetMail: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(to)
        writer.write(sealedToken)
        writer.write(requestedAt)
        writer.write(expiresAt)
        writer.write(userId)
        writer.write(position)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        to = try reader.read()
        sealedToken = try reader.read()
        requestedAt = try reader.read()
        expiresAt = try reader.read()
        userId = try reader.read()
        position = try reader.read()
    }
}
