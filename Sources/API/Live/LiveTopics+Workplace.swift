import Accounts
import EventLog
import Synchronization
import Workplace

/// `organisation:<organisationId>`: an organisation's events, for its accepted members, each to
/// those of them who may read what it is about (`OrganisationAudience`: a review to the admins
/// and the reviewed employee, a location's news to its members and the admins, a form to the
/// admins). The organisation routes' own check decides who may watch: 404
/// `organisation_not_found`, 403 `not_a_member`.
///
/// The watcher's standing (admin or not, their location) is read with the routes' membership
/// lookup when they subscribe and again on the events that change it, and kept with the grant:
/// the hub's check per event and watcher reads it, never the read model.
struct OrganisationTopic: LiveTopicKind {
    let name = "organisation"
    let takesID = true
    /// A removal ends the grant; a change of admin flag or location changes what reaches them.
    let recheckedOn: Set<String> = [
        WorkplaceEvent.MemberChanged.typeName, WorkplaceEvent.MemberRemoved.typeName, AccountEvent.Erased.typeName,
    ]

    /// `organisation:<id>`: the tag every event of the organisation carries, used as the key.
    func key(_ id: String) -> String { WorkplaceEvent.organisationTag(id) }

    func keys(of event: RecordedEvent) -> [String] {
        guard LiveTopics.isOf(event, domain: WorkplaceEvent.domain) else { return [] }
        return LiveTopics.tagValues(event, prefix: "\(name):").map(key)
    }

    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let organisationId = id ?? "", userId = caller.userId
        let standing = OrganisationStanding(try Self.member(userId, of: organisationId, api))
        return grant(organisationId, standing) { standing.update(try Self.member(userId, of: organisationId, api)) }
    }

    /// The grant of `organisationId` to the watcher `standing` holds; `recheck` reads their
    /// standing again (and throws when they are no longer a member).
    func grant(_ organisationId: String, _ standing: OrganisationStanding, recheck: @escaping @Sendable () throws -> Void) -> LiveGrant {
        LiveGrant(topic: key(organisationId), kind: name, keys: [key(organisationId)], recheck: recheck) { standing.admits($0) }
    }

    /// `userId` as `organisationId` sees them, refused unless an accepted member, as the
    /// organisation routes refuse.
    private static func member(_ userId: String, of organisationId: String, _ api: LogbookAPI) throws -> WorkplaceViewer {
        let (_, viewer) = try api.workplaceViewer(userId, of: organisationId)
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireMember(viewer) }
        return viewer
    }
}

/// A watcher's standing in an organisation as of its last check, which the hub reads for every
/// event (from its reader) while a recheck may replace it.
final class OrganisationStanding: Sendable {
    private let watcher: Mutex<OrganisationAudience.Watcher>

    init(_ viewer: WorkplaceViewer) {
        watcher = Mutex(OrganisationAudience.Watcher(viewer))
    }

    /// Replaces the standing with `viewer`.
    func update(_ viewer: WorkplaceViewer) {
        let updated = OrganisationAudience.Watcher(viewer)
        watcher.withLock { $0 = updated }
    }

    /// Whether `event` may reach the watcher as they stand.
    func admits(_ event: RecordedEvent) -> Bool {
        watcher.withLock { OrganisationAudience.admits(event, to: $0) }
    }
}
