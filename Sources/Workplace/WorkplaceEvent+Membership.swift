import EventSourcing
import Foundation

extension WorkplaceEvent {
    /// `workplace.joinRequested`: a user asks to join at a location, under a name and employee
    /// number of their own choosing that an admin checks.
    public struct JoinRequested: WorkplacePayload {
        public static let typeName = "workplace.joinRequested"
        public var entityTags: [String] { ["location:\(locationId)"] }
        public var event: WorkplaceEvent { .joinRequested(self) }
        public var subjectUserId: String? { userId }

        /// The organisation.
        public var organisationId: String
        /// Who asks.
        public var userId: String
        /// Where they say they work.
        public var locationId: String
        /// Their employee number, trimmed.
        public var employeeNumber: String
        /// Their name, trimmed.
        public var name: String
        /// When: the command's metadata time.
        public var requestedAt: Date
    }

    /// `workplace.joinRequestAccepted`: the user is an accepted member, not an admin, with the
    /// details as the admin corrected them (the request's where not corrected).
    public struct JoinRequestAccepted: WorkplacePayload {
        public static let typeName = "workplace.joinRequestAccepted"
        public var entityTags: [String] { ["location:\(locationId)"] }
        public var event: WorkplaceEvent { .joinRequestAccepted(self) }
        public var subjectUserId: String? { userId }

        /// The organisation.
        public var organisationId: String
        /// The new member.
        public var userId: String
        /// Their location.
        public var locationId: String
        /// Their employee number.
        public var employeeNumber: String
        /// Their name.
        public var name: String
        /// The admin who accepted.
        public var actorId: String
        /// When: the command's metadata time.
        public var acceptedAt: Date
    }

    /// `workplace.joinRequestRejected`.
    public struct JoinRequestRejected: WorkplacePayload {
        public static let typeName = "workplace.joinRequestRejected"
        public var event: WorkplaceEvent { .joinRequestRejected(self) }
        public var subjectUserId: String? { userId }

        /// The organisation.
        public var organisationId: String
        /// Whose request.
        public var userId: String
        /// The admin who rejected it.
        public var actorId: String
    }

    /// `workplace.memberChanged`: a member's location and admin flag after the change.
    public struct MemberChanged: WorkplacePayload {
        public static let typeName = "workplace.memberChanged"
        public var entityTags: [String] { ["location:\(locationId)"] }
        public var event: WorkplaceEvent { .memberChanged(self) }
        public var subjectUserId: String? { userId }

        /// The organisation.
        public var organisationId: String
        /// The member.
        public var userId: String
        /// Their location now.
        public var locationId: String
        /// Whether they are an admin now.
        public var admin: Bool
        /// The admin who changed it.
        public var actorId: String
    }

    /// `workplace.memberRemoved`: an admin removed a member, or a member left (`actorId` is
    /// then the member).
    public struct MemberRemoved: WorkplacePayload {
        public static let typeName = "workplace.memberRemoved"
        public var event: WorkplaceEvent { .memberRemoved(self) }
        public var subjectUserId: String? { userId }

        /// The organisation.
        public var organisationId: String
        /// The former member.
        public var userId: String
        /// Who removed them: an admin, or the member.
        public var actorId: String
    }
}
