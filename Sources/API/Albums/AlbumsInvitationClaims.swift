import Albums
import EventSourcing
import Foundation
import Projections

/// Hands pending photo-group invitations to the account that verified their address (SPEC §2
/// albums): one `claimInvitation` command per group, as that account.
///
/// Two moments can make a claim possible, and each runs the pass once its own events are in the
/// read models: a verification (the address's invitations so far) and an invitation (the
/// address's verified holder so far). Whichever of two racing ones comes second in the log sees
/// the other, so no invitation to a verified address stays pending. A claim that finds nothing
/// pending any more (the other pass took it) appends nothing.
struct AlbumsInvitationClaims: Sendable {
    let runtime: LogbookRuntime

    /// Claims the invitations of `userId`'s current e-mail, if it is verified.
    func claimAll(of userId: String) async throws {
        guard let profile = try runtime.accounts.profile(userId), profile.emailVerified else { return }
        for groupId in try runtime.albums.groupsInviting(profile.email) {
            try await claim(profile.email, in: groupId, for: userId)
        }
    }

    /// Claims the invitation of `email` in `groupId` for its verified holder, if it has one.
    func claimInvitation(of rawEmail: String, in groupId: String) async throws {
        let email = EmailAddress.normalised(rawEmail)
        guard let holder = try runtime.albums.verifiedHolder(of: email) else { return }
        try await claim(email, in: groupId, for: holder)
    }

    /// One claim. A group deleted meanwhile refuses it, which leaves nothing to claim.
    private func claim(_ email: String, in groupId: String, for userId: String) async throws {
        try await FollowUpCommand(runtime: runtime).run(
            AlbumsDecider.self, .claimInvitation(groupId: groupId, email: email), actor: userId, ignoring: .groupNotFound)
    }
}
