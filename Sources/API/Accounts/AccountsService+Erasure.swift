import Accounts
import Albums
import EventSourcing
import Foundation

extension AccountsService {
    /// Erases the caller's account after checking its password (SPEC §1, ADR 0004): the
    /// decider ends every session and releases the e-mail and username; once its event is
    /// projected every read model shows the account erased (each folds `account.erased`, or
    /// opens what it keeps sealed with the keys it destroys), and the avatar's and photos' files
    /// are deleted before the answer (ADR 0010). A rebuild of every read model follows in the
    /// background, for what the read-model file's free pages still hold.
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
        let inviteeSubject = AlbumsNames.inviteeSubject(email: credentials.email, sealedBy: runtime.commands.sealer)
        // Read before the event: afterwards nothing references her images any more.
        let blobs = try erasedBlobs(of: session.userId)
        try await leaveEveryGroup(of: session.userId)
        // The event first: the other way round, a failed append would leave a working account
        // whose data reads as erased. Once it is projected, `ErasureFollower` has destroyed the
        // keys and started the scrub of the read models, here as on every server on the log, and
        // every read model has taken her data out (ADR 0010).
        let outcome = try await run(
            .erase(.init(userId: session.userId, alsoErasing: [inviteeSubject])), actor: session.userId,
            entity: EntityStream.account(session.userId), expecting: AccountEvent.Erased.typeName)
        try finishErasure(of: [session.userId, inviteeSubject], through: outcome.position)
        try deleteErasedBlobs(blobs, of: session.userId)
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
