import Accounts
import Albums

extension MemberTopic {
    /// `group:<groupId>`: every event of a photo group, for its members. Membership is by user
    /// id, so leaving the group, its deletion and the account's erasure recheck it (an e-mail
    /// change no longer moves it). The group routes' own check: 404 `group_not_found` for a
    /// non-member, as for an unknown group.
    static let group = MemberTopic(
        name: "group", domain: AlbumsEvent.domain,
        recheckedOn: [
            AlbumsEvent.MemberLeft.typeName, AlbumsEvent.GroupDeleted.typeName, AccountEvent.Erased.typeName,
        ]
    ) { groupId, userId, api in
        try api.checkGroupMember(groupId, userId)
    }
}
