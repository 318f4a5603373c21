import EventSourcing
extension HouseholdEvent {
    /// `household.roomAdded`.
    public struct RoomAdded: HouseholdPayload {
        public static let typeName = "household.roomAdded"
        public var event: HouseholdEvent { .roomAdded(self) }
        public var entityTags: [String] { [HouseholdEvent.roomTag(roomId)] }

        /// The house.
        public var houseId: String
        /// The new room.
        public var roomId: String
        /// Trimmed, 1–100 characters, unique in the house ignoring case.
        public var name: String
    }

    /// `household.roomRenamed`.
    public struct RoomRenamed: HouseholdPayload {
        public static let typeName = "household.roomRenamed"
        public var event: HouseholdEvent { .roomRenamed(self) }
        public var entityTags: [String] { [HouseholdEvent.roomTag(roomId)] }

        /// The house.
        public var houseId: String
        /// The room.
        public var roomId: String
        /// The new name.
        public var name: String
    }

    /// `household.roomRemoved`: the room's tasks were removed by explicit `taskRemoved` events
    /// just before it, so no reader has to infer task removals from a room removal.
    public struct RoomRemoved: HouseholdPayload {
        public static let typeName = "household.roomRemoved"
        public var event: HouseholdEvent { .roomRemoved(self) }
        public var entityTags: [String] { [HouseholdEvent.roomTag(roomId)] }

        /// The house.
        public var houseId: String
        /// The removed room.
        public var roomId: String
    }
}
