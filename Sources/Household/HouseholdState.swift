/// What household decisions need, folded from a command's boundary: the house the command is
/// about, and the actor's memberships in any house.
///
/// `houses` is complete only for houses whose `house:` tag is in the boundary. The boundary of
/// `createHouse` and `joinHouse` also brings the actor's membership events of other houses,
/// which leave partial entries here (the creator, the joins) that decisions never read; only
/// `membershipsByUser` is meaningful for those.
public struct HouseholdState: Sendable, Equatable {
    /// Houses by id, closed ones included so that their ids are never reused.
    public internal(set) var houses: [String: House] = [:]
    /// The house each user is currently a member of, from the membership events seen. Complete
    /// for the actor of `createHouse`/`joinHouse`, whose `user:` events are all in the boundary.
    public internal(set) var membershipsByUser: [String: String] = [:]

    /// No house, no memberships.
    public init() {}

    /// The open house `houseId`, nil when unknown or closed.
    public func openHouse(_ houseId: String) -> House? {
        guard let house = houses[houseId], !house.isClosed else { return nil }
        return house
    }

    /// `userId`'s points in `houseId`, as the decider folds them (the points read model keeps the same sum).
    public func totalPoints(of userId: String, in houseId: String) -> Int {
        houses[houseId]?.pointsByUser[userId] ?? 0
    }

    /// One house.
    public struct House: Sendable, Equatable {
        /// Its id.
        public internal(set) var houseId: String
        /// Its name.
        public internal(set) var name: String
        /// The code that lets someone join now.
        public internal(set) var joinCode: String
        /// Whether the last member left; a closed house accepts nothing.
        public internal(set) var isClosed = false
        /// Current members by user id.
        public internal(set) var members: [String: Member] = [:]
        /// Points earned in this house by user id. Kept when a member leaves, so a returning
        /// member's total agrees with the history, which never forgets completions.
        public internal(set) var pointsByUser: [String: Int] = [:]
        /// Rooms by id.
        public internal(set) var rooms: [String: Room] = [:]
        /// Tasks of all rooms by id (the API addresses tasks by house and task id only).
        public internal(set) var tasks: [String: HouseTask] = [:]

        /// A house as it is created.
        public init(houseId: String, name: String, joinCode: String) {
            self.houseId = houseId
            self.name = name
            self.joinCode = joinCode
        }

        /// The ids of `roomId`'s tasks, sorted so that decisions over them are deterministic.
        public func taskIds(inRoom roomId: String) -> [String] {
            tasks.filter { $0.value.roomId == roomId }.keys.sorted()
        }
    }

    /// A current member.
    public struct Member: Sendable, Equatable {
        /// The display name they joined with.
        public internal(set) var displayName: String
    }

    /// A room.
    public struct Room: Sendable, Equatable {
        /// Its current name.
        public internal(set) var name: String
    }

    /// A recurring task.
    public struct HouseTask: Sendable, Equatable {
        /// The room it belongs to.
        public internal(set) var roomId: String
        /// Its current name.
        public internal(set) var name: String
        /// How often it is due.
        public internal(set) var frequencyDays: Int
        /// What doing it earns now.
        public internal(set) var points: Int
    }
}
