import Accounts
import CommandHandling
import EventSourcing
import Foundation
import Projections

extension AccountsService {
    /// A new verification token for the outbox, valid for a day from now.
    func newVerificationToken() -> MailedToken {
        let token = AuthTokens.random()
        return MailedToken(
            tokenHash: AuthTokens.hash(token), sealedToken: auth.secrets.seal(token),
            expiresAt: LogbookConfiguration.wholeSeconds(now.addingTimeInterval(LogbookConfiguration.emailVerificationLifetime)))
    }

    /// Mails a new verification token for the caller's e-mail (202), unless it is verified
    /// already (202, nothing mailed; what is addressed to it and still unclaimed is claimed, in
    /// case a claim was cut short). More than `passwordResetRequestsMax` asked for within the
    /// window (the reset requests' limiter, under a key of its own) is 429: the caller is signed in, so saying so tells them nothing new.
    func requestEmailVerification(of session: AuthSession) async throws {
        let limitKey = "verification:\(session.userId)"
        let retry = try await isRetry()
        if !retry, let seconds = auth.resetRequests.retryAfter([limitKey], now: now) {
            throw Problem.tooManyAttempts(retryAfter: seconds)
        }
        let command = AccountCommand.requestEmailVerification(.init(userId: session.userId, token: newVerificationToken()))
        let outcome = try await run(command, actor: session.userId, expecting: AccountEvent.EmailVerificationRequested.typeName)
        if !outcome.isReplay, !outcome.events.isEmpty { auth.resetRequests.record([limitKey], now: now) }
        try await AlbumsInvitationClaims(runtime: runtime).claimAll(of: session.userId)
    }

    /// Verifies the caller's e-mail with the token mailed to it, then hands them what was
    /// addressed to it (`AlbumsInvitationClaims`). An unknown, expired or used token, or another
    /// account's, is 404; one mailed to an address the caller has changed since is 409.
    func verifyEmail(of session: AuthSession, token: String) async throws {
        let invalid = ProblemMapping.problem(for: AccountError.invalidVerificationToken)
        guard AuthTokens.isWellFormed(token) else { throw invalid }
        let command = AccountCommand.verifyEmail(.init(userId: session.userId, tokenHash: AuthTokens.hash(token)))
        _ = try await run(command, actor: session.userId, expecting: AccountEvent.EmailVerified.typeName)
        try await AlbumsInvitationClaims(runtime: runtime).claimAll(of: session.userId)
    }

    /// Ends every session of the caller, the one asking included (sign out everywhere). As for a
    /// logout, a retry of one that worked answers 204 again, though its token no longer works.
    func endAllSessions() async throws {
        let (session, stored) = try Authenticator(runtime: runtime).bearerSession()
        if !stored.isActive(at: now) {
            guard stored.ended, try await isRetry() else { throw Problem.unauthorized(tokenGiven: true) }
        }
        _ = try await run(.endAllSessions(.init(userId: session.userId)), actor: session.userId,
                          expecting: AccountEvent.SessionEnded.typeName)
    }
}
