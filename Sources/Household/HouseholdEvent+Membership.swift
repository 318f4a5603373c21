import EventSourcing
extension HouseholdEvent {
    /// `household.houseCreated`: carries the join code because the code→house read model and
    /// `GET /v1/houses/{id}` need it, and the creator's name so member lists need no join.
    public struct HouseCreated: HouseholdPayload {
        public static let typeName = "household.houseCreated"
        public var event: HouseholdEvent { .houseCreated(self) }
        public var memberUserId: String? { creatorId }

        /// The new house.
        public var houseId: String
        /// Trimmed, 1–100 characters.
        public var name: String
        /// The first join code.
        public var joinCode: String
        /// The founding member.
        public var creatorId: String
        /// The founder's display name when the house was created.
        public var creatorDisplayName: String
    }

    /// `household.memberJoined`.
    public struct MemberJoined: HouseholdPayload {
        public static let typeName = "household.memberJoined"
        public var event: HouseholdEvent { .memberJoined(self) }
        public var memberUserId: String? { userId }

        /// The house joined.
        public var houseId: String
        /// The new member.
        public var userId: String
        /// The member's display name when joining.
        public var displayName: String
    }

    /// `household.memberLeft`.
    public struct MemberLeft: HouseholdPayload {
        public static let typeName = "household.memberLeft"
        public var event: HouseholdEvent { .memberLeft(self) }
        public var memberUserId: String? { userId }

        /// The house left.
        public var houseId: String
        /// The former member.
        public var userId: String
    }

    /// `household.houseClosed`: follows the last `memberLeft`; nothing happens in the house after.
    public struct HouseClosed: HouseholdPayload {
        public static let typeName = "household.houseClosed"
        public var event: HouseholdEvent { .houseClosed(self) }

        /// The closed house.
        public var houseId: String
    }

    /// `household.joinCodeRotated`.
    public struct JoinCodeRotated: HouseholdPayload {
        public static let typeName = "household.joinCodeRotated"
        public var event: HouseholdEvent { .joinCodeRotated(self) }

        /// The house.
        public var houseId: String
        /// The new code; the previous one stops working.
        public var joinCode: String
    }
}
