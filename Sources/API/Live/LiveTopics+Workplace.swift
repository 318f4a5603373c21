import EventLog
import Workplace

/// `organisation:<organisationId>`: every event of an organisation, for its accepted members.
/// A notification names only the type and position; what a member may read of it (someone
/// else's review, another location's news) is still decided by the route they re-fetch.
struct OrganisationTopic: LiveTopicKind {
    let name = "organisation"
    let takesID = true
    let recheckedOn: Set<String> = [WorkplaceEvent.MemberRemoved.typeName, "account.erased"]

    func keys(of event: RecordedEvent) -> [String] {
        guard LiveTopics.isOf(event, domain: WorkplaceEvent.domain) else { return [] }
        return LiveTopics.tagValues(event, prefix: "organisation:").map(WorkplaceEvent.organisationTag)
    }

    /// The organisation routes' own check: 404 `organisation_not_found`, 403 `not_a_member`.
    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let organisationId = id ?? ""
        try Self.check(organisationId, caller.userId, api)
        return LiveGrant(topic: "organisation:\(organisationId)", kind: name, keys: [WorkplaceEvent.organisationTag(organisationId)]) {
            (try? Self.check(organisationId, caller.userId, api)) != nil
        }
    }

    private static func check(_ organisationId: String, _ userId: String, _ api: LogbookAPI) throws {
        let (_, viewer) = try api.workplaceViewer(userId, of: organisationId)
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireMember(viewer) }
    }
}
