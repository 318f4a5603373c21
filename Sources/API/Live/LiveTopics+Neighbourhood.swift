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
        return grant(postcode) {
            guard try api.neighbour(userId).postcode == postcode else { throw LiveGrant.NoLongerAllowed() }
        }
    }

    /// The grant of the neighbourhood `postcode` to one of its residents, `recheck` checking
    /// that they still live there. Every resident reads all of its reports, replies and follower
    /// counts, so every event of it reaches every one.
    func grant(_ postcode: String, recheck: @escaping @Sendable () throws -> Void) -> LiveGrant {
        LiveGrant(topic: name, kind: name, keys: [NeighbourhoodEvent.neighbourhoodTag(postcode)], recheck: recheck)
    }
}
