/// The bounds the household decider enforces. Everything is bounded so that a house's state,
/// and the events one command emits, stay small.
public enum HouseholdLimits {
    /// House, room and task names, in characters after trimming.
    public static let nameCharacters = 1...100
    /// How often a task recurs.
    public static let frequencyDays = 1...365
    /// What completing a task earns.
    public static let points = 1...100
    /// 22 base64url characters carry 132 bits: at least the 128 bits of randomness SPEC asks for.
    public static let joinCodeCharactersMin = 22
    /// Generous for any encoding of a random code, small enough for a URL or a chat message.
    public static let joinCodeCharactersMax = 64
    /// Members of one house at a time.
    public static let membersPerHouseMax = 50
    /// Rooms of one house.
    public static let roomsPerHouseMax = 100
    /// Tasks of one room; also bounds the events `removeRoom` emits.
    public static let tasksPerRoomMax = 100
}

/// Which count limit a house reached.
public enum HouseholdLimit: String, Sendable, Equatable {
    /// `HouseholdLimits.membersPerHouseMax`.
    case members
    /// `HouseholdLimits.roomsPerHouseMax`.
    case rooms
    /// `HouseholdLimits.tasksPerRoomMax`.
    case tasks

    /// The limit's value.
    public var maximum: Int {
        switch self {
        case .members: HouseholdLimits.membersPerHouseMax
        case .rooms: HouseholdLimits.roomsPerHouseMax
        case .tasks: HouseholdLimits.tasksPerRoomMax
        }
    }
}
