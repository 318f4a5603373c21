import Accounts
import Albums
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
        // Taken before the erasure, which the read model's copy of the address does not outlive.
        let inviteeSubject = AlbumsNames.inviteeSubject(email: credentials.email)
        // The event first: the other way round, a failed append would leave a working account
        // whose data reads as erased. Should the key's deletion fail after it (500), the key
        // stays until an operator deletes it (ADR 0004, "Not done yet").
        _ = try await run(.erase(.init(userId: session.userId)), actor: session.userId, entity: EntityStream.account(session.userId), expecting: "account.erased")
        try finishErasure(of: session.userId, inviteeSubject: inviteeSubject)
    }

    /// Destroys the keys, then rebuilds the read models, which still hold the data in plain text.
    /// Besides the account's own key, the key of its current address's invitations
    /// (`AlbumsNames.inviteeSubject`): sealed under a subject of their own, since an invitee
    /// may have had no account yet, they are the account's personal data now that it holds
    /// the address.
    private func finishErasure(of userId: String, inviteeSubject: String) throws {
        do {
            try runtime.personalData.erase(userId)
            try runtime.personalData.erase(inviteeSubject)
        } catch {
            throw Problem.internalError
        }
        runtime.scrubReadModels()
    }
}
