import Foundation

/// Keys of the household read models. LMDB orders keys bytewise, so composite keys are built
/// for the queries' prefix scans: `<house>/<room>/<task>` lists a room's tasks, and
/// `<house>/<inverted position>` lists a house's history newest first.
enum HouseholdKeys {
    /// `<house>/<room>/<task>` in the `tasks` table.
    static func task(house houseId: String, room roomId: String, task taskId: String) -> String {
        roomPrefix(house: houseId, room: roomId) + component(taskId)
    }

    /// Every task key of one room starts with this.
    static func roomPrefix(house houseId: String, room roomId: String) -> String {
        housePrefix(houseId) + component(roomId) + "/"
    }

    /// Every task and history key of one house starts with this.
    static func housePrefix(_ houseId: String) -> String {
        component(houseId) + "/"
    }

    /// `<house>/<user>` in the `points` table.
    static func points(house houseId: String, user userId: String) -> String {
        housePrefix(houseId) + component(userId)
    }

    /// `<house>/<inverted position>` in the `history` table.
    static func history(house houseId: String, position: UInt64) -> String {
        housePrefix(houseId) + invertedPosition(position)
    }

    /// Digits in `invertedPosition`: enough for `UInt64.max`.
    static let invertedPositionDigits = 20

    /// `UInt64.max - position`, zero-padded, so that a later position sorts first.
    static func invertedPosition(_ position: UInt64) -> String {
        let digits = String(UInt64.max - position)
        return String(repeating: "0", count: invertedPositionDigits - digits.count) + digits
    }

    /// An id as one key component. Ids are server-made UUIDs, but the decider does not promise
    /// that, and an id holding `/` would make one house's prefix match another's keys: escaping
    /// `%` and `/` keeps keys one-to-one with the ids they are built from.
    static func component(_ id: String) -> String {
        guard id.contains(where: { $0 == "/" || $0 == "%" }) else { return id }
        return id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }
}
