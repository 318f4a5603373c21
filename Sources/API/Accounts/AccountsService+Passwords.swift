import Accounts
import Foundation
import Projections

extension AccountsService {
    /// Replaces the caller's password after checking the current one. A wrong current password
    /// is 403 (the token is fine) and counts as a failed login for the account's e-mail and the
    /// address, so a stolen token cannot be used to guess the password.
    func changePassword(of session: AuthSession, _ body: Components.Schemas.PasswordChange) async throws {
        if try isRetry() {
            // Answered with the first outcome; the passwords were checked then.
            let hash = try await auth.passwords.dummyHash()
            _ = try await run(.changePassword(.init(userId: session.userId, newPasswordHash: hash, newPasswordLength: 0)),
                              actor: session.userId, expecting: "account.passwordChanged")
            return
        }
        if let problem = PasswordPolicy.problem(with: body.newPassword) { throw Self.invalidField("newPassword", problem) }
        guard let credentials = try queries.credentials(userId: session.userId) else { throw Self.accountNotFound }
        let keys = loginLimitKeys(email: credentials.email)
        try checkLoginLimit(keys)
        guard try await auth.passwords.verify(body.currentPassword, against: credentials.passwordHash) else {
            auth.loginFailures.record(keys, now: now)
            throw Problem.wrongCurrentPassword
        }
        let hash = try await auth.passwords.hash(body.newPassword)
        let change = AccountCommand.ChangePassword(userId: session.userId, newPasswordHash: hash, newPasswordLength: body.newPassword.count)
        _ = try await run(.changePassword(change), actor: session.userId, expecting: "account.passwordChanged")
    }

    /// Puts a reset token for the account with `email` in the outbox, if there is such an
    /// account and it has not asked too often lately. Whatever happens, the caller learns
    /// nothing: the route answers 202 unless the service itself fails.
    func requestPasswordReset(email rawEmail: String) async throws {
        guard let credentials = try queries.credentials(email: AccountRules.normaliseEmail(rawEmail)) else { return }
        let limitKey = "reset:\(credentials.userId)"
        let now = now
        guard auth.resetRequests.retryAfter([limitKey], now: now) == nil else { return }
        let token = AuthTokens.random()
        let request = AccountCommand.RequestPasswordReset(
            userId: credentials.userId, tokenHash: AuthTokens.hash(token), sealedToken: auth.secrets.seal(token),
            expiresAt: LogbookConfiguration.wholeSeconds(now.addingTimeInterval(LogbookConfiguration.passwordResetLifetime)))
        do {
            let outcome = try await run(.requestPasswordReset(request), actor: credentials.userId, expecting: "account.passwordResetRequested")
            if !outcome.isReplay { auth.resetRequests.record([limitKey], now: now) }
        } catch let problem as Problem where problem.status < 500 {
            return  // a refusal (the account changed meanwhile, a reused key) is nothing to tell
        }
    }

    /// Sets a new password with a reset token; the decider ends every session of the account.
    /// An unknown, used or expired token is 404 `invalid_reset_token`; a retry of a redemption
    /// that worked answers 204 again.
    func redeemPasswordReset(token: String, _ body: Components.Schemas.PasswordResetRedemption) async throws {
        let invalid = ProblemMapping.problem(for: AccountError.invalidResetToken)
        guard AuthTokens.isWellFormed(token) else { throw invalid }
        let tokenHash = AuthTokens.hash(token)
        guard let record = try queries.passwordReset(tokenHash) else { throw invalid }
        let retry = try isRetry()
        guard retry || record.isRedeemable(at: now) else { throw invalid }
        if !retry, let problem = PasswordPolicy.problem(with: body.newPassword) { throw Self.invalidField("newPassword", problem) }
        let hash = retry ? try await auth.passwords.dummyHash() : try await auth.passwords.hash(body.newPassword)
        let redeem = AccountCommand.RedeemPasswordReset(
            userId: record.userId, tokenHash: tokenHash, newPasswordHash: hash, newPasswordLength: body.newPassword.count)
        _ = try await run(.redeemPasswordReset(redeem), actor: record.userId, expecting: "account.passwordResetRedeemed")
        // Whoever failed logins for the e-mail meanwhile must not lock the owner out now.
        if let email = try queries.credentials(userId: record.userId)?.email { auth.loginFailures.reset("email:\(email)") }
    }
}
