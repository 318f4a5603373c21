import Accounts
import Albums
import EventSourcing
import Foundation

extension AccountsService {
    /// Erases the caller's account after checking its password (SPEC §1, ADR 0004): the
    /// decider ends every session and releases the e-mail and username, then the account's
    /// personal data key is destroyed and every read model is rebuilt without its data.
    ///
    /// A wrong password is 403 and counts against the caller's password-change limit, so a
    /// stolen token cannot be used to guess the password. There is no retry to answer: once
    /// erased, the account's tokens are refused (401) before anything else.
    func erase(_ session: AuthSession, password: String) async throws {
        guard let credentials = try queries.credentials(userId: session.userId) else { throw Self.accountNotFound }
        let reservation = try auth.logins.admitPasswordChange(userId: session.userId, now: now)
        let verified: Bool
        do {
            verified = try await auth.passwords.verify(password, against: credentials.passwordHash)
        } catch {
            auth.logins.passwordChangeChecked(reservation)
            throw error
        }
        guard verified else { throw Problem.wrongCurrentPassword }
        auth.logins.passwordChangeChecked(reservation)
        // Taken before the erasure, which the read model's copy of the address does not outlive;
        // the event names it, so every server sharing the log destroys its key too.
        let inviteeSubject = AlbumsNames.inviteeSubject(email: credentials.email)
        // The event first: the other way round, a failed append would leave a working account
        // whose data reads as erased. Once it is projected, `ErasureFollower` has destroyed the
        // keys and started the scrub of the read models, here as on every server on the log.
        let outcome = try await run(
            .erase(.init(userId: session.userId, alsoErasing: [inviteeSubject])), actor: session.userId,
            entity: EntityStream.account(session.userId), expecting: AccountEvent.Erased.typeName)
        try finishErasure(of: [session.userId, inviteeSubject], through: outcome.position)
    }

    /// What the follower could not do when the batch was projected (the key storage failed), tried
    /// once more so the answer says whether the keys are gone: 500 if not, and the next start
    /// finishes it (ADR 0004).
    private func finishErasure(of subjects: [String], through position: UInt64) throws {
        guard runtime.erasures.handledPosition < position else { return }
        do {
            for subject in subjects { try runtime.personalData.erase(subject) }
        } catch {
            throw Problem.internalError
        }
        runtime.scrubReadModels()
    }
}
