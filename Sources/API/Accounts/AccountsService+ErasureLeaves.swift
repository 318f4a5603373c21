import Albums
import Foundation

extension AccountsService {
    /// Before an erasure, the user leaves every photo group she is a member of, as her own
    /// `leave` would: the albums' decisions never see `account.erased`, and a group must not be
    /// kept alive by a member who can no longer leave it. Her last group goes with her, photos
    /// and all. A group that refuses (gone meanwhile) has nothing to leave.
    func leaveEveryGroup(of userId: String) async throws {
        let groups = try runtime.albums.groups(ofUser: userId)
        guard !groups.isEmpty, let profile = try runtime.accounts.profile(userId) else { return }
        let actor = AlbumsCommand.Actor(email: profile.email, displayName: profile.displayName)
        for group in groups {
            try await FollowUpCommand(runtime: runtime).run(
                AlbumsDecider.self, .leave(groupId: group.groupId, by: actor), actor: userId, ignoring: .groupNotFound)
        }
    }
}
