/// Who may see what of an organisation (SPEC §2 workplace, issue 12 item 2), as pure rules the
/// API applies per request to what the read models hold; the read models themselves hold
/// everything as the events say.
///
/// - Every signed-in user sees an organisation's face: its name, its locations (to choose one
///   when asking to join) and their own standing, a pending request included
///   (`GET /v1/organisations/{id}` reads only the caller's own membership). Below that,
///   outsiders and users with a pending request are refused (`notAMember`).
/// - Employees (members who are not admins) see only their own reviews and only their own
///   location's news.
/// - Admins see everything of their organisation.
/// - The member list, the pending requests and the review forms are admin-only: members and
///   requests hold other people's employee numbers, and only admins review, so forms are of
///   no use to anyone else (an employee sees each question's text in their own reviews).
///
/// A refusal is a `WorkplaceError` so that the API answers it with the same stable codes as
/// commands: `notAMember` (403) for anyone not accepted, `notAnAdmin` (403) for an employee
/// asking for what only admins see, `reviewNotFound` (404) for a review that is not theirs (so
/// that an employee learns nothing about other people's review ids).
public enum WorkplaceAccess {
    /// What a list of reviews may show.
    public enum ReviewScope: Sendable, Equatable {
        /// Every review of the organisation.
        case all
        /// The reviews of one employee.
        case employee(String)
    }

    /// What a list of news may show.
    public enum NewsScope: Sendable, Equatable {
        /// Every location's news.
        case all
        /// One location's news.
        case location(String)
    }

    /// Refuses a viewer who is not an accepted member (`notAMember`).
    public static func requireMember(_ viewer: WorkplaceViewer) throws(WorkplaceError) {
        guard viewer.isMember else { throw .notAMember }
    }

    /// Refuses a viewer who is not an admin: `notAMember` for outsiders, `notAnAdmin` for
    /// employees. Guards the member list, the pending requests and the forms.
    public static func requireAdmin(_ viewer: WorkplaceViewer) throws(WorkplaceError) {
        try requireMember(viewer)
        guard viewer.isAdmin else { throw .notAnAdmin }
    }

    /// Whether `viewer` may see the reviews of `employeeId`: admins anyone's, a member their own.
    public static func maySeeReviews(of employeeId: String, _ viewer: WorkplaceViewer) -> Bool {
        viewer.isAdmin || (viewer.isMember && viewer.userId == employeeId)
    }

    /// The reviews a list asked for with `employeeId` (nil: not narrowed) may show: admins all
    /// or anyone's; an employee only their own, also when they did not narrow the list.
    public static func reviewScope(requested employeeId: String?, _ viewer: WorkplaceViewer) throws(WorkplaceError) -> ReviewScope {
        try requireMember(viewer)
        if let employeeId {
            guard maySeeReviews(of: employeeId, viewer) else { throw .notAnAdmin }
            return .employee(employeeId)
        }
        return viewer.isAdmin ? .all : .employee(viewer.userId)
    }

    /// Refuses one review of `employeeId` to a viewer who may not see it: `reviewNotFound` for
    /// someone else's review, as for an unknown id.
    public static func requireReview(of employeeId: String, _ viewer: WorkplaceViewer) throws(WorkplaceError) {
        try requireMember(viewer)
        guard maySeeReviews(of: employeeId, viewer) else { throw .reviewNotFound }
    }

    /// Whether `viewer` may see the news of `locationId`: admins every location's, a member
    /// their own location's.
    public static func maySeeNews(at locationId: String, _ viewer: WorkplaceViewer) -> Bool {
        viewer.isAdmin || (viewer.memberLocationId.map { $0 == locationId } ?? false)
    }

    /// The news a list asked for with `locationId` (nil: not narrowed) may show: admins all or
    /// any location's; an employee only their own location's, also when they did not narrow it.
    public static func newsScope(requested locationId: String?, _ viewer: WorkplaceViewer) throws(WorkplaceError) -> NewsScope {
        try requireMember(viewer)
        if let locationId {
            guard maySeeNews(at: locationId, viewer) else { throw .notAnAdmin }
            return .location(locationId)
        }
        if viewer.isAdmin { return .all }
        guard let own = viewer.memberLocationId else { throw .notAMember }  // a member always has a location
        return .location(own)
    }
}
