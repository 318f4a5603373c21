import Accounts
import Workplace

extension MemberTopic {
    /// `organisation:<organisationId>`: every event of an organisation, for its accepted members.
    /// A notification names only the type and position; what a member may read of it (someone
    /// else's review, another location's news) is still decided by the route they re-fetch.
    /// The organisation routes' own check: 404 `organisation_not_found`, 403 `not_a_member`.
    static let organisation = MemberTopic(
        name: "organisation", domain: WorkplaceEvent.domain,
        recheckedOn: [WorkplaceEvent.MemberRemoved.typeName, AccountEvent.Erased.typeName]
    ) { organisationId, userId, api in
        let (_, viewer) = try api.workplaceViewer(userId, of: organisationId)
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireMember(viewer) }
    }
}
