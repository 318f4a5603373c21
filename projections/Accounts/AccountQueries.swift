import Accounts
import EventLog
import Foundation

/// What the account routes ask of the read models. Queries read the served copies as they are;
/// a command's handler waits with `ProjectionEngine.waitUntilProjected` before answering, which
/// is what makes the next query read its own writes.
public struct AccountQueries<Store: EventStore>: Sendable {
    /// The engine the accounts projections are registered with.
    public let engine: ProjectionEngine<Store>
    /// Sessions by token hash: every authenticated request asks for one.
    let sessions: ReadModelCache<TokenHash, AccountSession>

    /// Queries over `engine`, which must run `AccountProjections.all`: reading an unregistered
    /// projection would silently answer from empty tables. Sessions are cached in memory, up to
    /// `cachedSessionsMax`, and kept current by the engine's live batches.
    public init(engine: ProjectionEngine<Store>, cachedSessionsMax: Int = 100_000) {
        let registered = Set(engine.projections.map(\.name))
        precondition(AccountProjections.all.allSatisfy { registered.contains($0.name) }, "accounts projections are registered")
        self.engine = engine
        sessions = ReadModelCache(entriesMax: cachedSessionsMax)
        engine.addObserver(SessionCacheObserver(cache: sessions))
    }

    /// The credentials of the account with the normalised `email`; nil when none has it.
    public func credentials(email: String) throws(ReadModelError) -> AccountCredentials? {
        try engine.read(AccountProjections.credentials) {
            try $0.value(AccountCredentials.self, at: email, in: AccountCredentialsProjection.byEmail)
        }
    }

    /// The credentials of account `userId`; nil when unknown.
    public func credentials(userId: String) throws(ReadModelError) -> AccountCredentials? {
        try engine.read(AccountProjections.credentials) { reader in
            guard let email = try reader.value(String.self, at: userId, in: AccountCredentialsProjection.emails) else { return nil }
            return try reader.value(AccountCredentials.self, at: email, in: AccountCredentialsProjection.byEmail)
        }
    }

    /// The session of the token whose SHA-256 is `tokenHash`, ended or expired ones included.
    public func session(_ tokenHash: TokenHash) throws(ReadModelError) -> AccountSession? {
        try sessions.value(tokenHash) { () throws(ReadModelError) in
            try engine.read(AccountProjections.sessions) {
                try $0.value(AccountSession.self, at: tokenHash.hex, in: AccountSessionsProjection.sessions)
            }
        }
    }

    /// The profile of account `userId`; nil when unknown.
    public func profile(_ userId: String) throws(ReadModelError) -> AccountProfile? {
        try engine.read(AccountProjections.profiles) {
            try $0.value(AccountProfile.self, at: userId, in: AccountProfilesProjection.profiles)
        }
    }

    /// The reset token whose SHA-256 is `tokenHash`, used or expired ones included.
    public func passwordReset(_ tokenHash: TokenHash) throws(ReadModelError) -> StoredPasswordReset? {
        try engine.read(AccountProjections.passwordResets) {
            try $0.value(StoredPasswordReset.self, at: tokenHash.hex, in: PasswordResetsProjection.resets)
        }
    }

    /// Up to `limit` mails of the outbox (reset and verification links), newest first, whose
    /// token still works at `now` (all of them when `now` is nil).
    public func outboxMails(limit: Int, now: Date? = nil) throws(ReadModelError) -> [OutboxMail] {
        try engine.read(AccountProjections.outbox) { reader in
            var mails: [OutboxMail] = []
            var after: String?
            // Expired mails are skipped, so a page may need more than one read to fill.
            while mails.count < limit {
                let page = try reader.entries(OutboxMail.self, in: OutboxProjection.mails, after: after, limit: limit)
                guard let last = page.last else { break }
                mails += page.map(\.value).filter { mail in now.map { mail.expiresAt > $0 } ?? true }.prefix(limit - mails.count)
                after = last.key
            }
            return mails
        }
    }
}
