import Foundation

/// A session as the bearer check sees it, stored under the SHA-256 of its token.
public struct AccountSession: Sendable, Equatable {
    /// The account the token logs in as.
    public var userId: String
    /// When the token stops working on its own.
    public var expiresAt: Date
    /// Whether the token was revoked (logout, password reset) before it expired.
    public var ended: Bool

    /// Whether the token works at `now`.
    public func isActive(at now: Date) -> Bool {
        !ended && expiresAt > now
    }
}

extension AccountSession: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(expiresAt)
        writer.write(ended)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        expiresAt = try reader.read()
        ended = try reader.read()
    }
}
