import EventSourcing
import Foundation

extension AccountDecider {
    /// Every other session that still works ends with the change, one `sessionEnded` each (as a
    /// reset does): a stolen token must not outlive the password its thief may have known.
    static func decideChangePassword(_ command: AccountCommand.ChangePassword, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        var fields = FieldValidator()
        fields.passwordLength("newPassword", command.newPasswordLength)
        try fields.check()
        let userId = command.userId
        let ended = account.activeSessions(at: now, except: command.keepingSession)
            .map { AccountEvent.sessionEnded(.init(userId: userId, tokenHash: $0)) }
        return [.passwordChanged(.init(userId: userId, passwordHash: command.newPasswordHash))] + ended
    }

    static func decideStartSession(_ command: AccountCommand.StartSession, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        try requireFuture(command.expiresAt, now: now)
        guard account.sessions[command.tokenHash] == nil else { throw .tokenInUse }
        return [.sessionStarted(.init(userId: command.userId, tokenHash: command.tokenHash, expiresAt: command.expiresAt))]
    }

    /// Logout is idempotent: a token that no longer works (unknown, ended, expired) ends quietly.
    static func decideEndSession(_ command: AccountCommand.EndSession, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        guard let expiresAt = account.sessions[command.tokenHash], expiresAt > now else { return [] }
        return [.sessionEnded(.init(userId: command.userId, tokenHash: command.tokenHash))]
    }

    /// The e-mail in the event is the account's current one, whatever the API looked up.
    static func decideRequestPasswordReset(_ command: AccountCommand.RequestPasswordReset, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        try requireFuture(command.expiresAt, now: now)
        guard account.pendingResets[command.tokenHash] == nil else { throw .tokenInUse }
        return [.passwordResetRequested(.init(
            userId: command.userId, tokenHash: command.tokenHash, sealedToken: command.sealedToken,
            expiresAt: command.expiresAt, email: account.email
        ))]
    }

    /// Redeeming ends every active session with one `sessionEnded` each (not one "all ended"
    /// event): whoever knew the old password may hold a session, and with one event type for
    /// revocation the session read model and the auth check need no second rule that must know
    /// which tokens were active at that moment. Expired sessions already do not work; no event.
    static func decideRedeemPasswordReset(_ command: AccountCommand.RedeemPasswordReset, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        // An unknown account is reported as a bad token too: the token is all the caller showed.
        guard let account = state.accounts[command.userId], account.isResetRedeemable(command.tokenHash, at: now) else {
            throw .invalidResetToken
        }
        var fields = FieldValidator()
        fields.passwordLength("newPassword", command.newPasswordLength)
        try fields.check()
        let userId = command.userId
        let ended = account.activeSessions(at: now).map { AccountEvent.sessionEnded(.init(userId: userId, tokenHash: $0)) }
        return [
            .passwordResetRedeemed(.init(userId: userId, tokenHash: command.tokenHash)),
            .passwordChanged(.init(userId: userId, passwordHash: command.newPasswordHash)),
        ] + ended
    }

    /// Expiry times come from the API's clock and configuration; one in the past would make a
    /// token that never worked, so it is refused rather than recorded.
    private static func requireFuture(_ expiresAt: Date, now: Date) throws(AccountError) {
        guard expiresAt > now else { throw .validationFailed([FieldError("expiresAt", "must be after now")]) }
    }
}
