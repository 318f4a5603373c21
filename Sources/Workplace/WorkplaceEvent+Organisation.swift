import EventSourcing
import Foundation

extension WorkplaceEvent {
    /// A location of an organisation: where members work and news is posted.
    public struct Location: Codable, Sendable, Equatable {
        /// Server-generated.
        public var locationId: String
        /// Trimmed, unique within the organisation case-insensitively.
        public var name: String
    }

    /// `workplace.organisationRegistered`: the organisation, its first locations and its creator,
    /// who becomes an accepted admin at the first location.
    public struct OrganisationRegistered: WorkplacePayload {
        public static let typeName = "workplace.organisationRegistered"
        // Not its locations: up to 100 of them would pass the log's 32 tags an event; they are
        // found with the organisation, and each location added later by its own tag.
        public var event: WorkplaceEvent { .organisationRegistered(self) }
        /// The name's tag, which keeps names unique, before the creator's.
        public var tags: [String] {
            [WorkplaceEvent.organisationTag(organisationId), WorkplaceEvent.organisationNameTag(name), WorkplaceEvent.userTag(creatorId)]
        }

        /// The new organisation.
        public var organisationId: String
        /// Trimmed; unique across the log case-insensitively (the name's tag).
        public var name: String
        /// At least one.
        public var locations: [Location]
        /// The creator, now an accepted admin.
        public var creatorId: String
        /// The creator's name as a member: their display name when registering.
        public var creatorName: String
        /// When: the command's metadata time.
        public var registeredAt: Date
    }

    /// `workplace.locationAdded`.
    public struct LocationAdded: WorkplacePayload {
        public static let typeName = "workplace.locationAdded"
        public var entityTags: [String] { ["location:\(location.locationId)"] }
        public var event: WorkplaceEvent { .locationAdded(self) }

        /// The organisation.
        public var organisationId: String
        /// The new location.
        public var location: Location
        /// The admin who added it.
        public var actorId: String
    }

    /// `workplace.locationRenamed`.
    public struct LocationRenamed: WorkplacePayload {
        public static let typeName = "workplace.locationRenamed"
        public var entityTags: [String] { ["location:\(location.locationId)"] }
        public var event: WorkplaceEvent { .locationRenamed(self) }

        /// The organisation.
        public var organisationId: String
        /// The location with its new name.
        public var location: Location
        /// The admin who renamed it.
        public var actorId: String
    }

    /// `workplace.locationRemoved`.
    public struct LocationRemoved: WorkplacePayload {
        public static let typeName = "workplace.locationRemoved"
        public var entityTags: [String] { ["location:\(locationId)"] }
        public var event: WorkplaceEvent { .locationRemoved(self) }

        /// The organisation.
        public var organisationId: String
        /// The removed location.
        public var locationId: String
        /// The admin who removed it.
        public var actorId: String
    }
}
