import EventLog
import Household

/// `house:<houseId>`: every event of a house, for its members. A member who leaves (or whose
/// house closes) stops receiving them at that event.
struct HouseTopic: LiveTopicKind {
    let name = "house"
    let takesID = true
    let recheckedOn: Set<String> = [HouseholdEvent.EventType.memberLeft.rawValue, HouseholdEvent.EventType.houseClosed.rawValue]

    func keys(of event: RecordedEvent) -> [String] {
        guard LiveTopics.isOf(event, domain: HouseholdEvent.domain) else { return [] }
        return LiveTopics.tagValues(event, prefix: "house:").map(HouseholdEvent.houseTag)
    }

    /// The household queries' own check: 404 `house_not_found`, 403 `not_a_member`.
    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let houseId = id ?? ""
        try api.checkMember(houseId, caller.userId)
        return LiveGrant(topic: "house:\(houseId)", kind: name, keys: [HouseholdEvent.houseTag(houseId)]) {
            (try? api.checkMember(houseId, caller.userId)) != nil
        }
    }
}
