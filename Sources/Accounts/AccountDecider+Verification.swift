import EventSourcing
import Foundation

extension AccountDecider {
    /// A verified e-mail needs no token: asking again mails nothing.
    static func decideRequestEmailVerification(
        _ command: AccountCommand.RequestEmailVerification, _ state: AccountState, now: Date
    ) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        guard !account.isEmailVerified else { return [] }
        return [try verificationRequested(command.token, for: command.userId, email: account.email, account, now: now)]
    }

    /// The token must be the account's own, pending and unexpired, and mailed to the e-mail the
    /// account has now: a link mailed to an address given up since verifies nothing.
    static func decideVerifyEmail(_ command: AccountCommand.VerifyEmail, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId],
              let pending = account.pendingVerifications[command.tokenHash], pending.expiresAt > now
        else { throw .invalidVerificationToken }
        guard pending.email == account.email else { throw .emailChangedSinceMailed }
        return [.emailVerified(.init(userId: command.userId, email: account.email))]
    }

    /// Every session that still works ends, one `sessionEnded` each (as a reset does).
    static func decideEndAllSessions(_ command: AccountCommand.EndAllSessions, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        return account.activeSessions(at: now).map { .sessionEnded(.init(userId: command.userId, tokenHash: $0)) }
    }

    /// The request event for `token`, mailed to `email`.
    static func verificationRequested(
        _ token: MailedToken, for userId: String, email: String, _ account: Account?, now: Date
    ) throws(AccountError) -> AccountEvent {
        guard token.expiresAt > now else { throw .validationFailed([FieldError("expiresAt", "must be after now")]) }
        guard account?.pendingVerifications[token.tokenHash] == nil else { throw .tokenInUse }
        return .emailVerificationRequested(.init(
            userId: userId, tokenHash: token.tokenHash, sealedToken: token.sealedToken, expiresAt: token.expiresAt, email: email))
    }
}
