import Foundation

/// What account decisions need, folded from a command's boundary: the subject account (all its
/// events, through `user:<id>`) and the e-mail and username claims of whoever else the boundary's
/// `email:`/`username:` tags reach.
///
/// Claims are tracked per user and uniqueness is derived from them. That is exact for the tags
/// in the boundary: every event that gives or takes a user a claim carries the claim's tag, so
/// a user's claim *of a tagged value* is never stale, even when their other events are unseen.
public struct AccountState: Sendable, Equatable {
    /// Current e-mail and username of each user the boundary's events named.
    public var claims: [String: Claims] = [:]
    /// Accounts whose registration the boundary held, by user id.
    public var accounts: [String: Account] = [:]

    /// The state before any event.
    public init() {}

    /// Whether a user other than `userId` currently holds the normalised `email`.
    public func isEmailTaken(_ email: String, byOtherThan userId: String) -> Bool {
        claims.contains { $0.key != userId && $0.value.email == email }
    }

    /// Whether a user other than `userId` currently holds `username`, compared case-insensitively.
    public func isUsernameTaken(_ username: String, byOtherThan userId: String) -> Bool {
        let key = AccountRules.normaliseUsername(username)
        return claims.contains { $0.key != userId && $0.value.usernameKey == key }
    }
}

/// A user's claims on unique values.
public struct Claims: Sendable, Equatable {
    /// The normalised e-mail the user holds, if an event seen gave them one.
    public var email: String?
    /// The lowercased username the user holds, if any.
    public var usernameKey: String?

    /// Claims on `email` and `usernameKey`.
    public init(email: String? = nil, usernameKey: String? = nil) {
        self.email = email
        self.usernameKey = usernameKey
    }
}

/// One registered account as decisions see it.
public struct Account: Sendable, Equatable {
    /// Normalised.
    public var email: String
    /// As its owner wrote it.
    public var username: String?
    /// Trimmed.
    public var displayName: String
    /// Trimmed; nil for none.
    public var firstName: String?
    /// Trimmed; nil for none.
    public var lastName: String?
    /// Normalised; nil for none.
    public var postcode: String?
    /// The image blob shown as the account's picture; nil for none.
    public var avatarBlobId: String?
    /// Sessions not ended, by token hash, with their expiry. Expired ones stay until ended: the
    /// fold has no clock, so decisions filter by the command's `now` (`activeSessions(at:)`).
    public var sessions: [TokenHash: Date] = [:]
    /// Reset tokens not yet used or cancelled by a password change, with their expiry.
    public var pendingResets: [TokenHash: Date] = [:]
    /// Whether the owner verified `email`, the current one (SPEC Accounts): only a verified
    /// e-mail claims what was addressed to it.
    public var isEmailVerified = false
    /// Verification tokens mailed and not yet used, with the e-mail each verifies and its
    /// expiry. A token for an e-mail the account no longer has stays here and is refused.
    public var pendingVerifications: [TokenHash: PendingVerification] = [:]

    /// An account as registered.
    public init(email: String, username: String?, displayName: String, firstName: String?, lastName: String?, postcode: String?) {
        self.email = email
        self.username = username
        self.displayName = displayName
        self.firstName = firstName
        self.lastName = lastName
        self.postcode = postcode
    }

    /// Hashes of the sessions that still work at `now`, in a stable order.
    public func activeSessions(at now: Date) -> [TokenHash] {
        sessions.filter { $0.value > now }.keys.sorted()
    }

    /// Hashes of the sessions that still work at `now` other than `kept`, in a stable order.
    public func activeSessions(at now: Date, except kept: TokenHash?) -> [TokenHash] {
        activeSessions(at: now).filter { $0 != kept }
    }

    /// Whether the reset token `tokenHash` is pending and unexpired at `now`.
    public func isResetRedeemable(_ tokenHash: TokenHash, at now: Date) -> Bool {
        guard let expiresAt = pendingResets[tokenHash] else { return false }
        return expiresAt > now
    }
}

/// A verification token mailed and not yet used.
public struct PendingVerification: Sendable, Equatable {
    /// The e-mail it verifies: the account's when it was mailed.
    public var email: String
    /// When it stops working.
    public var expiresAt: Date

    /// A token for `email` until `expiresAt`.
    public init(email: String, expiresAt: Date) {
        self.email = email
        self.expiresAt = expiresAt
    }
}
