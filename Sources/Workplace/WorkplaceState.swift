import EventSourcing
import Foundation

/// What workplace decisions need, folded from a command's boundary: the organisation the
/// command is about (every event tagged `organisation:<id>`) and, when registering, every
/// organisation registered under the same folded name (the name's tag).
///
/// Reviews are kept only as ids (so that an id is never reused); what they say lives in the
/// events and the read models, and no rule depends on it.
public struct WorkplaceState: Sendable, Equatable {
    /// Organisations by id: the command's one, plus any that share its name's tag.
    public internal(set) var organisations: [String: Organisation] = [:]

    /// No organisations.
    public init() {}

    /// The organisation whose name folds to the same as `name`'s other than `except`: the one a
    /// registration under `name` would collide with.
    public func organisation(named name: String, except organisationId: String) -> Organisation? {
        let folded = FoldedName.folded(name)
        return organisations.values.first { $0.organisationId != organisationId && FoldedName.folded($0.name) == folded }
    }

    /// One organisation.
    public struct Organisation: Sendable, Equatable {
        /// Its id.
        public internal(set) var organisationId: String
        /// Its name as registered (trimmed).
        public internal(set) var name: String
        /// Its current locations by id; removed ones are gone (their ids stay in `usedIds`).
        public internal(set) var locations: [String: Location] = [:]
        /// Accepted members by user id.
        public internal(set) var members: [String: Member] = [:]
        /// Open join requests by user id: at most one per user.
        public internal(set) var requests: [String: JoinRequest] = [:]
        /// Review forms by id, deleted ones included (`isDeleted`) so they answer not-found.
        public internal(set) var forms: [String: Form] = [:]
        /// News items by id, deleted ones included (`isDeleted`).
        public internal(set) var news: [String: News] = [:]
        /// Every id the organisation ever gave a location, form, question, review or news item:
        /// a new id must not be one of them, so that no read model entry is ever overwritten.
        public internal(set) var usedIds: Set<String> = []

        /// An organisation as registered, before its locations and creator are added.
        public init(organisationId: String, name: String) {
            self.organisationId = organisationId
            self.name = name
        }

        /// How many accepted members are admins: never below one once registered.
        public var adminCount: Int { members.values.reduce(0) { $0 + ($1.isAdmin ? 1 : 0) } }

        /// The live form `formId`, nil when unknown or deleted.
        public func liveForm(_ formId: String) -> Form? {
            forms[formId].flatMap { $0.isDeleted ? nil : $0 }
        }

        /// The live news item `newsId`, nil when unknown or deleted.
        public func liveNews(_ newsId: String) -> News? {
            news[newsId].flatMap { $0.isDeleted ? nil : $0 }
        }

        /// `userId` as `WorkplaceAccess` sees them here: an accepted member (admin or not, at a
        /// location), someone with a pending request, or an outsider.
        public func viewer(_ userId: String) -> WorkplaceViewer {
            if let member = members[userId] {
                return WorkplaceViewer(userId: userId, standing: .member(locationId: member.locationId, admin: member.isAdmin))
            }
            if let request = requests[userId] {
                return WorkplaceViewer(userId: userId, standing: .pending(locationId: request.locationId))
            }
            return WorkplaceViewer(userId: userId, standing: .outsider)
        }
    }

    /// A location.
    public struct Location: Sendable, Equatable {
        /// Its id.
        public internal(set) var locationId: String
        /// Its current name.
        public internal(set) var name: String
    }

    /// An accepted member.
    public struct Member: Sendable, Equatable {
        /// Their user id.
        public internal(set) var userId: String
        /// Their name as a member (the request's, as corrected; the creator's display name).
        public internal(set) var name: String
        /// Their employee number; nil for the creator, who registered without one.
        public internal(set) var employeeNumber: String?
        /// Where they work.
        public internal(set) var locationId: String
        /// Whether they are an admin.
        public internal(set) var isAdmin: Bool
    }

    /// An open join request.
    public struct JoinRequest: Sendable, Equatable {
        /// Who asks.
        public internal(set) var userId: String
        /// Where they say they work.
        public internal(set) var locationId: String
        /// Their employee number.
        public internal(set) var employeeNumber: String
        /// Their name.
        public internal(set) var name: String
        /// When they asked.
        public internal(set) var requestedAt: Date
    }

    /// A review form.
    public struct Form: Sendable, Equatable {
        /// Its id.
        public internal(set) var formId: String
        /// Its current name.
        public internal(set) var name: String
        /// Its questions in their current order.
        public internal(set) var questions: [WorkplaceEvent.Question]
        /// Whether it was deleted; a deleted form accepts nothing.
        public internal(set) var isDeleted = false
    }

    /// A news item.
    public struct News: Sendable, Equatable {
        /// Its id.
        public internal(set) var newsId: String
        /// The location it was posted to.
        public internal(set) var locationId: String
        /// Whether it was deleted.
        public internal(set) var isDeleted = false
    }
}

extension WorkplaceState.Organisation {
    /// Whether a location other than `except` has a name that folds to `name`'s.
    func hasLocation(named name: String, except locationId: String?) -> Bool {
        let folded = FoldedName.folded(name)
        return locations.values.contains { $0.locationId != locationId && FoldedName.folded($0.name) == folded }
    }

    /// Whether a live form other than `except` has a name that folds to `name`'s. A deleted
    /// form's name is free again: its reviews keep the name they were made under.
    func hasLiveForm(named name: String, except formId: String?) -> Bool {
        let folded = FoldedName.folded(name)
        return forms.values.contains { !$0.isDeleted && $0.formId != formId && FoldedName.folded($0.name) == folded }
    }
}
