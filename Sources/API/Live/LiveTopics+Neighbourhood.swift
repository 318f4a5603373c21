import Accounts
import EventLog
import Neighbourhood

/// `neighbourhood`: the events of reports in the caller's neighbourhood (their postcode when
/// they subscribe). A caller who moves stops receiving them at the profile change; they
/// subscribe again for the new one.
struct NeighbourhoodTopic: LiveTopicKind {
    let name = "neighbourhood"
    let takesID = false
    let recheckedOn: Set<String> = [AccountEvent.ProfileUpdated.typeName, AccountEvent.Erased.typeName]

    func keys(of event: RecordedEvent) -> [String] {
        guard LiveTopics.isOf(event, domain: NeighbourhoodEvent.domain) else { return [] }
        return LiveTopics.tagValues(event, prefix: "neighbourhood:").map(NeighbourhoodEvent.neighbourhoodTag)
    }

    /// 409 `no_neighbourhood` without a postcode, as the neighbourhood's lists answer.
    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let postcode = try NeighbourhoodRoutes.required(try api.neighbour(caller.userId).postcode)
        let userId = caller.userId
        return LiveGrant(topic: name, kind: name, keys: [NeighbourhoodEvent.neighbourhoodTag(postcode)]) {
            guard try api.neighbour(userId).postcode == postcode else { throw LiveGrant.NoLongerAllowed() }
        }
    }
}
