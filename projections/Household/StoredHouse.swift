import Household

/// A house as the `houses` table stores it: its members' names as the log stores them (sealed),
/// opened by `HouseholdQueries`. Points are in the projection's `points` table, so that a task
/// completion, most of a household log, rewrites one small value instead of the house.
struct StoredHouse: Equatable {
    var view: HouseView

    init(_ created: HouseholdEvent.HouseCreated) {
        let creator = MemberView(userId: created.creatorId, displayName: created.creatorDisplayName)
        view = HouseView(
            houseId: created.houseId, name: created.name, joinCode: created.joinCode,
            isClosed: false, members: [creator], rooms: [])
    }

    /// Adds a member at the end of the join order; a repeated join only refreshes the name.
    mutating func join(_ member: MemberView) {
        if let index = view.members.firstIndex(where: { $0.userId == member.userId }) {
            view.members[index] = member
        } else {
            view.members.append(member)
        }
    }

    mutating func leave(_ userId: String) {
        view.members.removeAll { $0.userId == userId }
    }

    /// Adds or renames a room, keeping rooms sorted by name for the house view.
    mutating func setRoom(_ room: RoomView) {
        view.rooms.removeAll { $0.roomId == room.roomId }
        view.rooms.append(room)
        // Room names are unique ignoring case; the id only settles a clash the decider prevents.
        view.rooms.sort { ($0.name.lowercased(), $0.name, $0.roomId) < ($1.name.lowercased(), $1.name, $1.roomId) }
    }

    mutating func removeRoom(_ roomId: String) {
        view.rooms.removeAll { $0.roomId == roomId }
    }
}

extension StoredHouse: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(view)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        view = try reader.read()
    }
}
