import EventLog
import EventSourcing
import Foundation
import Workplace

/// What the workplace routes ask of the read models. The tables hold what the events say, the
/// same for every reader; who may see what (`WorkplaceAccess`) is applied by the caller per
/// request. Queries read the served copy as it is; a command's handler waits with
/// `ProjectionEngine.waitUntilProjected` before answering, which is what makes the next query
/// read its own writes.
public struct WorkplaceQueries<Store: EventStore>: Sendable {
    /// The engine the workplace projections are registered with.
    public let engine: ProjectionEngine<Store>

    /// Directory entries one search reads at most. A page that stops here is shorter than asked
    /// but still has a `next`, so every request is bounded and no match is lost.
    public static var entriesScannedPerRequestMax: Int { 5_000 }

    /// Queries over `engine`, which must run `WorkplaceProjections.all`: reading an
    /// unregistered projection would silently answer from empty tables.
    public init(engine: ProjectionEngine<Store>) {
        let registered = Set(engine.projections.map(\.name))
        precondition(WorkplaceProjections.all.allSatisfy { registered.contains($0.name) }, "workplace projections are registered")
        self.engine = engine
    }

    /// A page of the public directory by name (case-insensitively), then id: every
    /// organisation, or those whose name contains `query` ignoring case and width (a blank
    /// query matches all).
    public func directory(query: String?, limit: Int?, cursor: String?) throws(ListQueryError) -> ItemPage<OrganisationDirectoryEntry> {
        let needle = query.map(FoldedName.folded) ?? ""
        return try directoryPage(limit: limit, cursor: cursor) { entry in needle.isEmpty || entry.folded.contains(needle) }
    }

    /// Organisation `organisationId`: its name and locations; nil when unknown.
    public func organisation(id organisationId: String) throws(ReadModelError) -> OrganisationView? {
        try engine.read(WorkplaceProjections.organisations) { model in
            try model.value(OrganisationView.self, at: WorkplaceKeys.organisation(organisationId), in: Table.organisations)
        }
    }

    /// Where `userId` stands with `organisationId`: an accepted member, a pending request, or
    /// nil (never asked, rejected, removed, or an unknown organisation).
    public func membership(of userId: String, in organisationId: String) throws(ReadModelError) -> WorkplaceMembership? {
        try engine.read(WorkplaceProjections.organisations) { model -> WorkplaceMembership? in
            let key = WorkplaceKeys.item(organisationId, userId)
            if let member = try model.value(OrganisationMember.self, at: key, in: Table.members) { return .member(try opened(member)) }
            return try model.value(JoinRequestView.self, at: key, in: Table.requests).map { request throws(ReadModelError) in
                .pending(try opened(request))
            }
        }
    }

    /// Organisations a user reads at most in `organisations(of:)` and `shareAnOrganisation`. The
    /// decider bounds no user's organisations, but joining one takes an admin's acceptance, so a
    /// real user is in a handful; the cap keeps a request bounded whatever the log holds.
    public static var organisationsPerUserScannedMax: Int { 1_000 }

    /// The organisations `userId` is an accepted member of (admin or employee), by id; pending
    /// requests do not count. At most `organisationsPerUserScannedMax`.
    public func organisations(of userId: String) throws(ReadModelError) -> [String] {
        try engine.read(WorkplaceProjections.organisations) { model in
            try Self.organisations(of: userId, model)
        }
    }

    /// Whether `userId` and `otherId` are both accepted members of one organisation now (looked
    /// for among the first `organisationsPerUserScannedMax` of `userId`'s).
    public func shareAnOrganisation(_ userId: String, _ otherId: String) throws(ReadModelError) -> Bool {
        try engine.read(WorkplaceProjections.organisations) { model in
            try Self.organisations(of: userId, model).contains { organisationId in
                try model.value(OrganisationMember.self, at: WorkplaceKeys.item(organisationId, otherId), in: Table.members) != nil
            }
        }
    }

    private static func organisations(of userId: String, _ model: ReadModelReader) throws -> [String] {
        let prefix = WorkplaceKeys.userPrefix(userId)
        let entries = try model.entries(String.self, in: Table.userOrganisations, prefix: prefix, limit: organisationsPerUserScannedMax)
        return entries.map(\.value)
    }

    /// The organisation's pending join requests, oldest first (then by user id).
    public func pendingRequests(of organisationId: String) throws(ReadModelError) -> [JoinRequestView] {
        try all(JoinRequestView.self, of: organisationId, in: Table.requests).map(opened)
            .sorted { ($0.requestedAt, $0.userId) < ($1.requestedAt, $1.userId) }
    }

    /// The organisation's accepted members by name (case-insensitively), then user id.
    public func members(of organisationId: String) throws(ReadModelError) -> [OrganisationMember] {
        try all(OrganisationMember.self, of: organisationId, in: Table.members).map(opened).byName(\.name, then: \.userId)
    }

    /// The organisation's live review forms by name (case-insensitively), then form id.
    public func forms(of organisationId: String) throws(ReadModelError) -> [ReviewFormView] {
        try all(ReviewFormView.self, of: organisationId, in: Table.forms).byName(\.name, then: \.formId)
    }

    /// Form `formId` of the organisation; nil when unknown, deleted, or another organisation's.
    public func form(id formId: String, in organisationId: String) throws(ReadModelError) -> ReviewFormView? {
        try engine.read(WorkplaceProjections.organisations) { model in
            try model.value(ReviewFormView.self, at: WorkplaceKeys.item(organisationId, formId), in: Table.forms)
        }
    }

    /// A page of the organisation's reviews, newest first: of one employee, or all when
    /// `employeeId` is nil. The read model lists where each review is; the reviews are read from
    /// the log, as their events say (their sealed fields opened: an erased user's read as erased).
    public func reviews(
        in organisationId: String, employee employeeId: String?, limit: Int?, cursor: String?
    ) async throws(ListQueryError) -> ItemPage<ReviewView> {
        let (table, prefix) = employeeId.map { (Table.employeeReviews, WorkplaceKeys.listPrefix(organisationId, $0)) }
            ?? (Table.organisationReviews, WorkplaceKeys.organisationPrefix(organisationId))
        let positions = try newestFirst(UInt64.self, in: table, prefix: prefix, limit: limit, cursor: cursor) { _, position in position }
        do { return ItemPage(items: try await readReviews(at: positions.items), next: positions.next) } catch { throw .readModel(error) }
    }

    /// Review `reviewId` of the organisation; nil when unknown or another organisation's.
    public func review(id reviewId: String, in organisationId: String) async throws(ReadModelError) -> ReviewView? {
        guard let locator = try locateReview(id: reviewId, in: organisationId) else { return nil }
        return try await review(at: locator)
    }

    /// Where review `reviewId` of the organisation is, and whose it is, without reading it: the
    /// API decides who may read it before anything of it is opened. Nil when unknown.
    public func locateReview(id reviewId: String, in organisationId: String) throws(ReadModelError) -> ReviewLocator? {
        try engine.read(WorkplaceProjections.organisations) { model in
            try model.value(ReviewLocator.self, at: WorkplaceKeys.item(organisationId, reviewId), in: Table.reviews)
        }
    }

    /// The review `locator` names, read from the log.
    public func review(at locator: ReviewLocator) async throws(ReadModelError) -> ReviewView {
        let reviews = try await readReviews(at: [locator.position])
        assert(reviews.count == 1, "readReviews answers every position or throws")
        return reviews[0]
    }

    /// The reviews whose events are at `positions`, in that order. The read model names only
    /// positions of reviews, so one without a review is a fault of the service.
    private func readReviews(at positions: [UInt64]) async throws(ReadModelError) -> [ReviewView] {
        // With the keyring the engine opens events with, as the read models once did.
        let keyring = engine.personalData
        return try await engine.logItems(at: positions) { record throws(ReadModelError) in
            try Self.review(from: record, keyring: keyring)
        }
    }

    /// The review `record` holds, its sealed fields opened with `keyring`.
    private static func review(from record: RecordedEvent, keyring: (any PersonalDataKeyring)?) throws(ReadModelError) -> ReviewView {
        try ReadModelError.openingPersonalData("the log", key: String(record.position)) {
            let event = try WorkplaceEvent.decode(typeName: record.type, schemaVersion: record.schemaVersion, data: record.data, opening: keyring)
            guard case .reviewSubmitted(let submitted)? = event else {
                throw ReadModelError.undecodable(table: "the log", key: String(record.position), reason: "\(record.type) is not a review")
            }
            return ReviewView(submitted)
        }
    }

    /// A page of the organisation's live news, newest first: of one location, or all when
    /// `locationId` is nil.
    public func news(
        in organisationId: String, location locationId: String?, limit: Int?, cursor: String?
    ) throws(ListQueryError) -> ItemPage<NewsItemView> {
        let (table, prefix) = locationId.map { (Table.locationNews, WorkplaceKeys.listPrefix(organisationId, $0)) }
            ?? (Table.organisationNews, WorkplaceKeys.organisationPrefix(organisationId))
        // A posted item never changes (a deletion takes it out of both lists), and its event's
        // position keys it in both: what was opened is kept by that position.
        return try newestFirst(String.self, in: table, prefix: prefix, limit: limit, cursor: cursor, keptByPosition: true) { model, newsId in
            try model.value(NewsItemView.self, at: WorkplaceKeys.item(organisationId, newsId), in: Table.news).map(opened)
        }
    }

    typealias Table = WorkplaceOrganisationsProjection

    /// Every value of `table` under the organisation. The decider bounds members and requests
    /// (`WorkplaceLimits.membersPerOrganisationMax`) and forms, so reading them all is bounded.
    private func all<T: ReadModelValue>(_ type: T.Type, of organisationId: String, in table: String) throws(ReadModelError) -> [T] {
        try engine.read(WorkplaceProjections.organisations) { model in
            try model.entries(T.self, in: table, prefix: WorkplaceKeys.organisationPrefix(organisationId), limit: .max).map(\.value)
        }
    }
}

extension Array {
    /// Sorted by `name` folded as the workplace compares names, then by `id`.
    fileprivate func byName(_ name: KeyPath<Element, String>, then id: KeyPath<Element, String>) -> [Element] {
        map { (FoldedName.folded($0[keyPath: name]), $0) }
            .sorted { ($0.0, $0.1[keyPath: id]) < ($1.0, $1.1[keyPath: id]) }
            .map(\.1)
    }
}
