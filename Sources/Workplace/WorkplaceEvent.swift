import EventSourcing
import Foundation

/// What happened in an organisation of the workplace app: the storage format of the workplace
/// domain. Payloads are written to the log as JSON and never rewritten, so change them only by
/// adding a schema version.
///
/// Every event is in the stream `organisation-<organisationId>` and tagged
/// `organisation:<organisationId>`, the boundary of every command but registering (which adds
/// the name's tag, `organisationName:<folded name>`, so that names stay unique across the log).
/// Events about one user (a join request, a membership change, a review of them) are also
/// tagged `user:<userId>`, so that "what happened to this user" is one tag query; other domains
/// read `user:` tags only together with their own event types, so sharing the tag is safe.
public enum WorkplaceEvent: CataloguedEvent {
    /// Every stored type name starts `workplace.`.
    public static let domain = "workplace"

    /// An organisation was registered; its creator is its first, accepted admin.
    case organisationRegistered(OrganisationRegistered)
    /// A location was added.
    case locationAdded(LocationAdded)
    /// A location was renamed.
    case locationRenamed(LocationRenamed)
    /// A location was removed; no member or pending request was at it.
    case locationRemoved(LocationRemoved)
    /// A user asked to join.
    case joinRequested(JoinRequested)
    /// An admin accepted a join request, with the details as corrected.
    case joinRequestAccepted(JoinRequestAccepted)
    /// An admin rejected a join request; the user may ask again.
    case joinRequestRejected(JoinRequestRejected)
    /// An admin changed a member's location or admin flag.
    case memberChanged(MemberChanged)
    /// A member left or was removed.
    case memberRemoved(MemberRemoved)
    /// A review form was created.
    case formCreated(FormCreated)
    /// A form was renamed.
    case formRenamed(FormRenamed)
    /// A question was added at the end of a form.
    case questionAdded(QuestionAdded)
    /// A question was removed from a form.
    case questionRemoved(QuestionRemoved)
    /// A form's questions were put in a new order.
    case questionsReordered(QuestionsReordered)
    /// A form was deleted; reviews made with it keep their snapshot.
    case formDeleted(FormDeleted)
    /// An admin reviewed an employee: the form's name and every question as they were then.
    case reviewSubmitted(ReviewSubmitted)
    /// An admin posted news to a location.
    case newsPosted(NewsPosted)
    /// An admin deleted a news item.
    case newsDeleted(NewsDeleted)

    /// Every payload type, for decoding by stored type name.
    public static let catalogue = EventPayloadCatalogue<WorkplaceEvent>([
        OrganisationRegistered.self, LocationAdded.self, LocationRenamed.self, LocationRemoved.self,
        JoinRequested.self, JoinRequestAccepted.self, JoinRequestRejected.self, MemberChanged.self, MemberRemoved.self,
        FormCreated.self, FormRenamed.self, QuestionAdded.self, QuestionRemoved.self, QuestionsReordered.self,
        FormDeleted.self, ReviewSubmitted.self, NewsPosted.self, NewsDeleted.self,
    ])

    /// The stream of an organisation, `organisation-<organisationId>`.
    public static func streamID(organisation organisationId: String) -> String { "organisation-\(organisationId)" }
    /// The tag every event of an organisation carries, `organisation:<organisationId>`.
    public static func organisationTag(_ organisationId: String) -> String { "organisation:\(organisationId)" }
    /// The tag of an organisation's name, `organisationName:<SHA-256 of the folded name>`:
    /// registering appends only while no event carries it. Hashed so that a name of any length
    /// and script fits a tag index key.
    public static func organisationNameTag(_ name: String) -> String { "organisationName:\(FoldedName.digest(name))" }
    /// The tag of the user an event is about, `user:<userId>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// The case's payload: the one switch over the cases, as only a macro could derive it (swift-syntax's build breaks the 10-minute first build).
    public var payload: any WorkplacePayload {
        switch self {
        case .organisationRegistered(let p): p
        case .locationAdded(let p): p
        case .locationRenamed(let p): p
        case .locationRemoved(let p): p
        case .joinRequested(let p): p
        case .joinRequestAccepted(let p): p
        case .joinRequestRejected(let p): p
        case .memberChanged(let p): p
        case .memberRemoved(let p): p
        case .formCreated(let p): p
        case .formRenamed(let p): p
        case .questionAdded(let p): p
        case .questionRemoved(let p): p
        case .questionsReordered(let p): p
        case .formDeleted(let p): p
        case .reviewSubmitted(let p): p
        case .newsPosted(let p): p
        case .newsDeleted(let p): p
        }
    }

    /// The case's payload, for the type name, the version and the JSON.
    public var eventPayload: any EventPayload<WorkplaceEvent> { payload.asEventPayload }

    /// The organisation the event belongs to.
    public var organisationId: String { payload.organisationId }
}

/// What every workplace payload says: its organisation and, when the event is about one user,
/// who (`user:` tag).
public protocol WorkplacePayload: EventPayload<WorkplaceEvent> {
    /// The organisation.
    var organisationId: String { get }
    /// The user the event is about (the requester, the member, the reviewed employee), if any.
    var subjectUserId: String? { get }
    /// Tags of the things inside the organisation the event is about (`location:`, `form:`,
    /// `review:`, `news:`), so an operator's audit by any of their ids finds it.
    var entityTags: [String] { get }
}

extension WorkplacePayload {
    /// Most events are about the organisation, not one user.
    public var subjectUserId: String? { nil }
    /// Events about the organisation as a whole name nothing inside it.
    public var entityTags: [String] { [] }
    /// `organisation-<organisationId>`.
    public var streamID: String { WorkplaceEvent.streamID(organisation: organisationId) }
    /// `organisation:<id>`, the subject's `user:<id>`, the entities'.
    public var tags: [String] {
        [WorkplaceEvent.organisationTag(organisationId)] + (subjectUserId.map { [WorkplaceEvent.userTag($0)] } ?? []) + entityTags
    }
}
