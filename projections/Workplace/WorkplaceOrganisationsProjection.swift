import EventLog
import EventSourcing
import Workplace

/// Every organisation of the workplace app with its directory entry, members, join requests,
/// forms, reviews and news, as the events say; who may see what (`WorkplaceAccess`) is the
/// API's to apply per request. Reviews are kept as where they are in the log, and read from it
/// when asked (`WorkplaceProjectionInput`).
///
/// One projection with many tables, as the neighbourhood's, because every event is about one
/// organisation and most touch two or three of its tables at once. News lists hold ids and are
/// resolved on reading, so a news item (up to tens of kilobytes) is stored once.
/// Every event does a bounded number of key writes and decodes at most one stored value (an
/// organisation of at most 100 locations, a form of at most 50 questions, a member, a news
/// item being deleted): no scan runs per event.
public struct WorkplaceOrganisationsProjection: Projection {
    /// The stable name.
    public var name: String { "workplace.organisations" }
    /// Version 2: `userOrganisations` was added. Version 3: reviews are kept as log positions.
    /// Version 4: personal data as the log stores it (sealed), opened by `WorkplaceQueries`.
    public var version: Int { 4 }
    /// Only its domain's events reach it, a review as its ids, nothing opened.
    public var reads: [any DecodableDomainEvent.Type]? { [WorkplaceProjectionInput.self] }
    /// `directory`: `<folded name>\0<org>` → `OrganisationDirectoryEntry`;
    /// `organisations`: `<org>` → `OrganisationView`;
    /// `members`: `<org>/<user>` → `OrganisationMember` (accepted members only);
    /// `userOrganisations`: `<user>/<org>` → organisationId (accepted members only: the
    ///   `members` table turned around, so a user's organisations are one prefix scan);
    /// `requests`: `<org>/<user>` → `JoinRequestView` (pending requests only);
    /// `forms`: `<org>/<form>` → `ReviewFormView` (live forms only);
    /// `reviews`: `<org>/<review>` → `ReviewLocator` (the review's position and employee);
    /// `organisationReviews`: `<org>/<inverted position>` → the review's position;
    /// `employeeReviews`: `<org>/<employee>/<inverted position>` → the review's position;
    /// `news`: `<org>/<news>` → `NewsItemView` (live items only);
    /// `organisationNews`: `<org>/<inverted position>` → newsId;
    /// `locationNews`: `<org>/<location>/<inverted position>` → newsId.
    /// The values of `members`, `requests` and `news` hold personal data as the log stores it
    /// (sealed).
    public var tables: [String] {
        [Self.directory, Self.organisations, Self.members, Self.userOrganisations, Self.requests, Self.forms, Self.reviews,
         Self.organisationReviews, Self.employeeReviews, Self.news, Self.organisationNews, Self.locationNews]
    }

    /// The directory, requests, the turned-around membership list, reviews and the lists:
    /// `apply` puts and removes their entries by key and never reads them.
    public var heldTables: Set<String> {
        [Self.directory, Self.requests, Self.userOrganisations, Self.reviews, Self.organisationReviews, Self.employeeReviews,
         Self.organisationNews, Self.locationNews]
    }

    static let directory = "directory"
    static let organisations = "organisations"
    static let members = "members"
    static let userOrganisations = "userOrganisations"
    static let requests = "requests"
    static let forms = "forms"
    static let reviews = "reviews"
    static let organisationReviews = "organisationReviews"
    static let employeeReviews = "employeeReviews"
    static let news = "news"
    static let organisationNews = "organisationNews"
    static let locationNews = "locationNews"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds a workplace event into the tables; ignores other events. Events about something
    /// not stored (the decider emits none) change nothing.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        let workplace: WorkplaceEvent
        switch try event.decoded(as: WorkplaceProjectionInput.self) {
        case nil: return
        case .reviewSubmitted(let ids)?: return try submit(ids, at: event.position, model)
        case .event(let whole)?: workplace = whole
        }
        switch workplace {
        case .organisationRegistered(let p): try register(p, model)
        case .locationAdded(let p):
            try changeOrganisation(p.organisationId, model) { $0.locations.append(OrganisationLocation(p.location)) }
        case .locationRenamed(let p):
            try changeOrganisation(p.organisationId, model) { organisation in
                guard let index = organisation.locations.firstIndex(where: { $0.locationId == p.location.locationId }) else { return }
                organisation.locations[index].name = p.location.name
            }
        case .locationRemoved(let p):
            try changeOrganisation(p.organisationId, model) { $0.locations.removeAll { $0.locationId == p.locationId } }
        case .joinRequested, .joinRequestAccepted, .joinRequestRejected, .memberChanged, .memberRemoved:
            try applyMembership(workplace, model)
        case .formCreated, .formRenamed, .questionAdded, .questionRemoved, .questionsReordered, .formDeleted:
            try applyForm(workplace, model)
        case .reviewSubmitted: break  // never: `WorkplaceProjectionInput` hands a review over as its ids
        case .newsPosted(let p): try post(p, at: event.position, model)
        case .newsDeleted(let p): try deleteNews(p, model)
        }
    }

    private func register(_ p: WorkplaceEvent.OrganisationRegistered, _ model: ReadModelWriter) throws {
        let folded = FoldedName.folded(p.name)
        try model.put(
            OrganisationDirectoryEntry(organisationId: p.organisationId, name: p.name, folded: folded),
            at: WorkplaceKeys.directory(folded: folded, organisationId: p.organisationId), in: Self.directory)
        let view = OrganisationView(organisationId: p.organisationId, name: p.name, locations: p.locations.map(OrganisationLocation.init))
        try model.put(view, at: WorkplaceKeys.organisation(p.organisationId), in: Self.organisations)
        // The decider registers at least one location; the creator works at the first.
        let creator = OrganisationMember(
            userId: p.creatorId, name: p.creatorName, employeeNumber: nil, locationId: p.locations.first?.locationId ?? "", admin: true)
        try model.put(creator, at: WorkplaceKeys.item(p.organisationId, p.creatorId), in: Self.members)
        try model.put(p.organisationId, at: WorkplaceKeys.userOrganisation(p.creatorId, p.organisationId), in: Self.userOrganisations)
    }

    private func changeOrganisation(_ organisationId: String, _ model: ReadModelWriter, _ change: (inout OrganisationView) -> Void) throws {
        try model.update(OrganisationView.self, at: WorkplaceKeys.organisation(organisationId), in: Self.organisations, change)
    }

    private func submit(_ ids: WorkplaceProjectionInput.ReviewIds, at position: UInt64, _ model: ReadModelWriter) throws {
        let locator = ReviewLocator(position: position, employeeId: ids.employeeId)
        try model.put(locator, at: WorkplaceKeys.item(ids.organisationId, ids.reviewId), in: Self.reviews)
        let organisationKey = ReadModelKeys.newestFirst(WorkplaceKeys.organisationPrefix(ids.organisationId), position)
        try model.put(position, at: organisationKey, in: Self.organisationReviews)
        let employeeKey = ReadModelKeys.newestFirst(WorkplaceKeys.listPrefix(ids.organisationId, ids.employeeId), position)
        try model.put(position, at: employeeKey, in: Self.employeeReviews)
    }

    private func post(_ p: WorkplaceEvent.NewsPosted, at position: UInt64, _ model: ReadModelWriter) throws {
        let item = NewsItemView(
            newsId: p.newsId, locationId: p.locationId, title: p.title, text: p.text, imageBlobId: p.imageBlobId,
            postedAt: p.postedAt, author: WorkplacePerson(userId: p.authorId, name: p.authorName), position: position)
        try model.put(item, at: WorkplaceKeys.item(p.organisationId, p.newsId), in: Self.news)
        for (table, key) in newsListKeys(p.organisationId, locationId: p.locationId, position: position) {
            try model.put(p.newsId, at: key, in: table)
        }
    }

    private func deleteNews(_ p: WorkplaceEvent.NewsDeleted, _ model: ReadModelWriter) throws {
        let key = WorkplaceKeys.item(p.organisationId, p.newsId)
        guard let item = try model.value(NewsItemView.self, at: key, in: Self.news) else { return }
        try model.delete(key, in: Self.news)
        // The stored item's location, not the event's: the lists hold it where it was posted.
        for (table, listKey) in newsListKeys(p.organisationId, locationId: item.locationId, position: item.position) {
            try model.delete(listKey, in: table)
        }
    }

    private func newsListKeys(_ organisationId: String, locationId: String, position: UInt64) -> [(table: String, key: String)] {
        [(Self.organisationNews, ReadModelKeys.newestFirst(WorkplaceKeys.organisationPrefix(organisationId), position)),
         (Self.locationNews, ReadModelKeys.newestFirst(WorkplaceKeys.listPrefix(organisationId, locationId), position))]
    }
}

extension OrganisationLocation {
    init(_ location: WorkplaceEvent.Location) {
        self.init(locationId: location.locationId, name: location.name)
    }
}
