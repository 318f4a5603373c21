import Albums
import EventLog

/// `group:<groupId>`: every event of a photo group, for its members. Membership is by e-mail
/// address, so leaving the group and changing one's e-mail both recheck it.
struct GroupTopic: LiveTopicKind {
    let name = "group"
    let takesID = true
    let recheckedOn: Set<String> = [
        AlbumsEvent.MemberLeft.typeName, AlbumsEvent.GroupDeleted.typeName, "account.emailChanged", "account.erased",
    ]

    func keys(of event: RecordedEvent) -> [String] {
        guard LiveTopics.isOf(event, domain: AlbumsEvent.domain) else { return [] }
        return LiveTopics.tagValues(event, prefix: "group:").map(AlbumsEvent.groupTag)
    }

    /// The group routes' own check: 404 `group_not_found` for a non-member, as for an unknown group.
    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let groupId = id ?? ""
        try api.checkGroupMember(groupId, caller.userId)
        return LiveGrant(topic: "group:\(groupId)", kind: name, keys: [AlbumsEvent.groupTag(groupId)]) {
            (try? api.checkGroupMember(groupId, caller.userId)) != nil
        }
    }
}
