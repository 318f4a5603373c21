import Household

/// A house as the `houses` table stores it: the view plus every user's points.
///
/// Points live here rather than in a table of their own so that the scoreboard is one read in
/// one snapshot, consistent with the member list it is filtered by.
struct StoredHouse: Codable, Equatable {
    var view: HouseView
    /// Points by user, sorted by user id so equal models encode to equal bytes. Former members
    /// keep theirs: a returning member's total then agrees with the history, as in the decider.
    var points: [UserPoints] = []

    /// One user's points in the house.
    struct UserPoints: Codable, Equatable {
        var userId: String
        var points: Int
    }

    init(_ created: HouseholdEvent.HouseCreated) {
        let creator = MemberView(userId: created.creatorId, displayName: created.creatorDisplayName)
        view = HouseView(
            houseId: created.houseId, name: created.name, joinCode: created.joinCode,
            isClosed: false, members: [creator], rooms: [])
    }

    /// `userId`'s points, 0 when they have none.
    func points(of userId: String) -> Int {
        points.first { $0.userId == userId }?.points ?? 0
    }

    mutating func award(_ earned: Int, to userId: String) {
        if let index = points.firstIndex(where: { $0.userId == userId }) {
            points[index].points += earned
        } else {
            points.append(UserPoints(userId: userId, points: earned))
            points.sort { $0.userId < $1.userId }
        }
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
