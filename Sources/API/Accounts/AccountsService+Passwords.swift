import Accounts
import CommandHandling
import EventSourcing
import Foundation
import Projections

extension AccountsService {
    /// Replaces the caller's password after checking the current one, and ends every other
    /// session of the caller (the one asking stays). A wrong current password is 403 (the token
    /// is fine) and counts against this user's password changes, so a stolen token cannot be used
    /// to guess the password; nobody else's failures limit them.
    func changePassword(of session: AuthSession, _ body: Components.Schemas.PasswordChange) async throws {
        if try await isRetry() {
            // Answered with the first outcome; the passwords were checked then.
            let hash = try await auth.passwords.dummyHash()
            _ = try await run(
                .changePassword(.init(userId: session.userId, newPasswordHash: hash, newPasswordLength: 0)),
                actor: session.userId, entity: EntityStream.account(session.userId), expecting: AccountEvent.PasswordChanged.typeName)
            return
        }
        if let problem = PasswordPolicy.problem(with: body.newPassword) { throw Self.invalidField("newPassword", problem) }
        guard let credentials = try queries.credentials(userId: session.userId) else { throw Self.accountNotFound }
        let reservation = try auth.logins.admitPasswordChange(userId: session.userId, now: now)
        let verified: Bool
        do {
            verified = try await auth.passwords.verify(body.currentPassword, against: credentials.passwordHash)
        } catch {
            auth.logins.passwordChangeChecked(reservation)
            throw error
        }
        // A wrong password keeps its slot: that is the failure counted.
        guard verified else { throw Problem.wrongCurrentPassword }
        auth.logins.passwordChangeChecked(reservation)
        let hash = try await auth.passwords.hash(body.newPassword)
        let change = AccountCommand.ChangePassword(
            userId: session.userId, newPasswordHash: hash, newPasswordLength: PasswordPolicy.length(of: body.newPassword),
            keepingSession: session.tokenHash)
        _ = try await run(
            .changePassword(change), actor: session.userId, entity: EntityStream.account(session.userId),
            expecting: AccountEvent.PasswordChanged.typeName)
    }

    /// Queues a reset request for `email` and returns at once, doing the same for every input
    /// (an account's e-mail, another, none at all), so neither the answer nor its timing tells
    /// whether an account has the e-mail. A malformed Idempotency-Key is 400 for every e-mail.
    func requestPasswordReset(email rawEmail: String) throws {
        let metadata = try runner.metadata(actor: "")
        auth.passwordResets.enqueue(.init(email: AccountRules.normaliseEmail(rawEmail), now: metadata.now, commandID: metadata.commandID))
    }

    /// Puts a reset token for the account with the request's e-mail in the outbox, if there is
    /// such an account and it has not asked too often lately (`PasswordResetWorker` calls this).
    /// A refusal (the account changed meanwhile, a reused key) is nothing to tell anyone.
    func carryOutPasswordReset(_ request: PasswordResetQueue.Request) async throws {
        guard AccountRules.emailProblem(request.email) == nil,
              let credentials = try queries.credentials(email: request.email) else { return }
        let limitKey = "reset:\(credentials.userId)"
        guard auth.resetRequests.retryAfter([limitKey], now: request.now) == nil else { return }
        let token = AuthTokens.random()
        let command = AccountCommand.requestPasswordReset(.init(
            userId: credentials.userId, tokenHash: AuthTokens.hash(token), sealedToken: auth.secrets.seal(token),
            expiresAt: LogbookConfiguration.wholeSeconds(request.now.addingTimeInterval(LogbookConfiguration.passwordResetLifetime))))
        let metadata = CommandMetadata(actor: credentials.userId, now: request.now, commandID: request.commandID)
        do throws(CommandFailure<AccountError>) {
            let outcome = try await runtime.commands.handle(AccountDecider.self, command, metadata: metadata)
            if !outcome.isReplay { auth.resetRequests.record([limitKey], now: request.now) }
        } catch .rejected, .idempotencyKeyReused {
            return
        }
    }

    /// Sets a new password with a reset token; the decider ends every session of the account.
    /// An unknown, used or expired token is 404 `invalid_reset_token`; a retry of a redemption
    /// that worked answers 204 again.
    func redeemPasswordReset(token: String, _ body: Components.Schemas.PasswordResetRedemption) async throws {
        let invalid = ProblemMapping.problem(for: AccountError.invalidResetToken)
        guard AuthTokens.isWellFormed(token) else { throw invalid }
        let tokenHash = AuthTokens.hash(token)
        guard let reset = try queries.passwordReset(tokenHash) else { throw invalid }
        let retry = try await isRetry()
        guard retry || reset.isRedeemable(at: now) else { throw invalid }
        if !retry, let problem = PasswordPolicy.problem(with: body.newPassword) { throw Self.invalidField("newPassword", problem) }
        let hash = retry ? try await auth.passwords.dummyHash() : try await auth.passwords.hash(body.newPassword)
        let redeem = AccountCommand.RedeemPasswordReset(
            userId: reset.userId, tokenHash: tokenHash, newPasswordHash: hash, newPasswordLength: PasswordPolicy.length(of: body.newPassword))
        _ = try await run(.redeemPasswordReset(redeem), actor: reset.userId, expecting: AccountEvent.PasswordResetRedeemed.typeName)
        // Whoever failed logins for the e-mail meanwhile need not slow the owner down now.
        if let email = try queries.credentials(userId: reset.userId)?.email { auth.logins.forgetFailures(ofEmail: email) }
    }
}
