import Accounts
import EventLog
import Foundation
import Projections

extension AccountsService {
    /// The caller's profile.
    func profile(of session: AuthSession) throws -> AccountProfile {
        guard let profile = try queries.profile(session.userId) else { throw Self.accountNotFound }
        return profile
    }

    /// Changes the given fields of the caller's profile and answers with the profile after it.
    /// Nothing to change is not an error: the profile comes back as it is. A new e-mail is
    /// unverified, and its verification token goes to the outbox with the change.
    func updateProfile(of session: AuthSession, _ body: Components.Schemas.ProfileChanges) async throws -> AccountProfile {
        let update = AccountCommand.UpdateProfile(
            userId: session.userId, displayName: body.displayName, firstName: body.firstName, lastName: body.lastName,
            username: body.username, postcode: body.postcode, email: body.email,
            verification: body.email == nil ? nil : newVerificationToken())
        _ = try await run(
            .updateProfile(update), actor: session.userId, entity: EntityStream.account(session.userId),
            expecting: AccountEvent.ProfileUpdated.typeName, AccountEvent.EmailChanged.typeName, AccountEvent.UsernameChanged.typeName)
        return try profile(of: session)
    }

    /// A page of the caller's own events, newest first; 400 `invalid_limit` or `invalid_cursor`
    /// as for every list.
    func activity(of session: AuthSession, limit: Int?, cursor: String?) async throws -> ActivityPage {
        do {
            return try await queries.activity(of: session.userId, limit: limit, cursor: cursor)
        } catch {
            throw ProblemMapping.problem(for: error)
        }
    }
}
