import Foundation

/// Keys of the household read models. LMDB orders keys bytewise, so composite keys are built
/// for the queries' prefix scans: `<house>/<room>/<task>` lists a room's tasks, and
/// `<house>/<inverted position>` lists a house's history newest first.
enum HouseholdKeys {
    /// `<house>/<room>/<task>` in the `tasks` table.
    static func task(house houseId: String, room roomId: String, task taskId: String) -> String {
        roomPrefix(house: houseId, room: roomId) + ReadModelKeys.component(taskId)
    }

    /// Every task key of one room starts with this.
    static func roomPrefix(house houseId: String, room roomId: String) -> String {
        housePrefix(houseId) + ReadModelKeys.component(roomId) + "/"
    }

    /// Every task and history key of one house starts with this.
    static func housePrefix(_ houseId: String) -> String {
        ReadModelKeys.component(houseId) + "/"
    }

    /// `<house>/<user>` in the `points` table.
    static func points(house houseId: String, user userId: String) -> String {
        housePrefix(houseId) + ReadModelKeys.component(userId)
    }

    /// `<house>/<inverted position>` in the `history` table.
    static func history(house houseId: String, position: UInt64) -> String {
        ReadModelKeys.newestFirst(housePrefix(houseId), position)
    }
}
