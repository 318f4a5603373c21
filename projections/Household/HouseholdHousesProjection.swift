import EventLog
import EventSourcing
import Household

/// Houses with their members and rooms (`houses`), points per member (`points`), each user's
/// current house (`memberships`), and each current join code's house (`joinCodes`). Members'
/// names are kept as the log stores them, sealed: `HouseholdQueries` opens them when read.
///
/// One projection rather than three because the three tables change together on every
/// membership event, and one projection applies an event to all of them in one transaction.
public struct HouseholdHousesProjection: Projection {
    /// The stable name.
    public var name: String { "household.houses" }
    /// Version 5: members' names as the log stores them (sealed), opened when read, so an
    /// erasure is the key's destruction and folds nothing here (ADR 0018). Version 4: an erasure
    /// renamed its user. Version 3: values in the binary `ReadModelValue` form instead of JSON
    /// (version 2 moved points from the house row to `points`).
    public var version: Int { 5 }
    /// Only its domain's events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [HouseholdProjectionInput.self] }
    /// `houses`: houseId → house; `points`: `<house>/<user>` → points (former members keep theirs,
    /// as in the decider, so a returning member's total agrees with the history);
    /// `memberships`: userId → houseId; `joinCodes`: code → houseId.
    public var tables: [String] { [Self.houses, Self.points, Self.memberships, Self.joinCodes] }

    static let houses = "houses"
    static let points = "points"
    static let memberships = "memberships"
    static let joinCodes = "joinCodes"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds a household event into the tables; ignores other events.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard let household = try event.decoded(as: HouseholdProjectionInput.self)?.event else { return }
        if case .houseCreated(let created) = household {
            try model.put(StoredHouse(created), at: created.houseId, in: Self.houses)
            try model.put(created.houseId, at: created.creatorId, in: Self.memberships)
            try model.put(created.houseId, at: created.joinCode, in: Self.joinCodes)
            return
        }
        switch household {
        case .taskCompleted(let completed):
            let key = HouseholdKeys.points(house: completed.houseId, user: completed.userId)
            let total = try model.value(Int.self, at: key, in: Self.points) ?? 0
            try model.put(total + completed.points, at: key, in: Self.points)
            return
        case .taskAdded, .taskEdited, .taskRemoved:
            return  // tasks are `household.tasks`'s
        default:
            break
        }
        // The decider emits nothing for a house before its creation; such an event has nothing
        // to change here.
        guard var house = try model.value(StoredHouse.self, at: household.houseId, in: Self.houses) else { return }
        try apply(household, to: &house, model)
        try model.put(house, at: household.houseId, in: Self.houses)
    }

    private func apply(_ event: HouseholdEvent, to house: inout StoredHouse, _ model: ReadModelWriter) throws {
        switch event {
        case .houseCreated:
            break  // handled by the caller
        case .memberJoined(let p):
            house.join(MemberView(userId: p.userId, displayName: p.displayName))
            try model.put(p.houseId, at: p.userId, in: Self.memberships)
        case .memberLeft(let p):
            house.leave(p.userId)
            try removeMembership(of: p.userId, in: p.houseId, model)
        case .houseClosed(let p):
            // The last member's `memberLeft` came first; this only guards against a stray member.
            for member in house.view.members { try removeMembership(of: member.userId, in: p.houseId, model) }
            house.view.members = []
            house.view.isClosed = true
            try removeJoinCode(house.view.joinCode, of: p.houseId, model)
        case .joinCodeRotated(let p):
            try removeJoinCode(house.view.joinCode, of: p.houseId, model)
            house.view.joinCode = p.joinCode
            try model.put(p.houseId, at: p.joinCode, in: Self.joinCodes)
        case .roomAdded(let p):
            house.setRoom(RoomView(roomId: p.roomId, name: p.name))
        case .roomRenamed(let p):
            house.setRoom(RoomView(roomId: p.roomId, name: p.name))
        case .roomRemoved(let p):
            house.removeRoom(p.roomId)
        case .taskCompleted, .taskAdded, .taskEdited, .taskRemoved:
            break  // handled by the caller without reading the house
        }
    }

    /// Only the entry pointing at this house: a user's entry for another house is not ours.
    private func removeMembership(of userId: String, in houseId: String, _ model: ReadModelWriter) throws {
        if try model.value(String.self, at: userId, in: Self.memberships) == houseId {
            try model.delete(userId, in: Self.memberships)
        }
    }

    /// Only the entry pointing at this house, should two houses ever draw the same random code.
    private func removeJoinCode(_ code: String, of houseId: String, _ model: ReadModelWriter) throws {
        if try model.value(String.self, at: code, in: Self.joinCodes) == houseId {
            try model.delete(code, in: Self.joinCodes)
        }
    }
}
