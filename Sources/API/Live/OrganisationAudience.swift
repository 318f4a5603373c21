import EventLog
import Workplace

/// Which watchers of an `organisation:<id>` topic an event of it reaches: only those who may read
/// what it is about (SPEC §1 "Live updates"), by the rules the organisation's query routes apply
/// (`WorkplaceAccess`, SPEC §2 workplace). A notification names only a type and a position, but
/// that alone tells an employee that a colleague was reviewed, asked to join or was moved.
///
/// Pure and cheap: the hub asks it for every event and every watcher, so it reads the event's
/// type and tags against a standing read beforehand (`Watcher`), never a read model.
enum OrganisationAudience: Sendable, Equatable {
    /// Every accepted member: the organisation's face (its name and locations), which the
    /// organisation route shows every member.
    case members
    /// Admins only: the review forms, which only admins list and read.
    case admins
    /// Admins and the user the event is about (its `user:` tag): a join request and its answer,
    /// a change to or removal of a membership (the member sees their own standing; the member
    /// list and the requests are admins'), a review (`maySeeReviews`: admins and the reviewed).
    case adminsAndSubject
    /// Admins and the members of the event's location (its `location:` tag): news
    /// (`maySeeNews`: a member their own location's, admins every location's).
    case adminsAndLocation

    /// The audience of every workplace event type. A type missing here (a new one) reaches admins
    /// only until it is given one: admins read everything of their organisation, so that fails
    /// closed without hiding anything from them.
    static let byType: [String: OrganisationAudience] = [
        WorkplaceEvent.OrganisationRegistered.typeName: .members,
        WorkplaceEvent.LocationAdded.typeName: .members,
        WorkplaceEvent.LocationRenamed.typeName: .members,
        WorkplaceEvent.LocationRemoved.typeName: .members,
        WorkplaceEvent.JoinRequested.typeName: .adminsAndSubject,
        WorkplaceEvent.JoinRequestAccepted.typeName: .adminsAndSubject,
        WorkplaceEvent.JoinRequestRejected.typeName: .adminsAndSubject,
        WorkplaceEvent.MemberChanged.typeName: .adminsAndSubject,
        WorkplaceEvent.MemberRemoved.typeName: .adminsAndSubject,
        WorkplaceEvent.FormCreated.typeName: .admins,
        WorkplaceEvent.FormRenamed.typeName: .admins,
        WorkplaceEvent.QuestionAdded.typeName: .admins,
        WorkplaceEvent.QuestionRemoved.typeName: .admins,
        WorkplaceEvent.QuestionsReordered.typeName: .admins,
        WorkplaceEvent.FormDeleted.typeName: .admins,
        WorkplaceEvent.ReviewSubmitted.typeName: .adminsAndSubject,
        WorkplaceEvent.NewsPosted.typeName: .adminsAndLocation,
        WorkplaceEvent.NewsDeleted.typeName: .adminsAndLocation,
    ]

    /// The audience of events of `type`.
    static func of(_ type: String) -> OrganisationAudience { byType[type] ?? .admins }

    /// A watcher as the rules see them: their standing in the organisation, with the tags an
    /// event about them or their location carries made once, so a check compares strings and
    /// builds none.
    struct Watcher: Sendable, Equatable {
        /// The watcher and where they stand.
        let viewer: WorkplaceViewer
        /// `user:<their id>`: the tag of an event about them.
        let subjectTag: String
        /// `location:<their location>`: the tag of their location's news; nil for a non-member.
        let locationTag: String?

        init(_ viewer: WorkplaceViewer) {
            self.viewer = viewer
            subjectTag = WorkplaceEvent.userTag(viewer.userId)
            locationTag = viewer.memberLocationId.map { "location:\($0)" }
        }
    }

    /// Whether `event`, of the watcher's organisation, may reach `watcher`.
    static func admits(_ event: RecordedEvent, to watcher: Watcher) -> Bool {
        guard watcher.viewer.isMember else { return false }
        if watcher.viewer.isAdmin { return true }
        switch of(event.type) {
        case .members: return true
        case .admins: return false
        case .adminsAndSubject: return event.tags.contains(watcher.subjectTag)
        case .adminsAndLocation: return watcher.locationTag.map(event.tags.contains) ?? false
        }
    }
}
