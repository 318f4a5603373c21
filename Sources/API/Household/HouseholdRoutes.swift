import Foundation
import Household
import Projections

/// Conversions and fresh values for the household routes.
enum HouseholdRoutes {
    /// A join code of 256 random bits, base64url without padding (43 characters): shareable as
    /// text, and far beyond guessing, which the join route also rate-limits.
    /// It is made like a session token, which has exactly this shape.
    static func newJoinCode() -> String {
        AuthTokens.random()
    }

    static func house(_ view: HouseView) -> Components.Schemas.House {
        .init(houseId: view.houseId, name: view.name, joinCode: view.joinCode,
              members: view.members.map { .init(userId: $0.userId, displayName: $0.displayName) },
              rooms: view.rooms.map { .init(roomId: $0.roomId, name: $0.name) })
    }

    static func task(_ view: TaskView) -> Components.Schemas.RoomTask {
        .init(taskId: view.taskId, name: view.name, frequencyDays: view.frequencyDays, points: view.points,
              lastDoneAt: view.lastDoneAt, lastDoneBy: view.lastDoneBy.map { .init(userId: $0.userId, displayName: $0.displayName) },
              priority: .init(rawValue: view.priority.rawValue)!)
    }

    static func historyItem(_ item: HistoryItem) -> Components.Schemas.HistoryItem {
        .init(taskId: item.taskId, taskName: item.taskName, roomName: item.roomName, userId: item.userId,
              displayName: item.displayName, points: item.points, doneAt: item.doneAt)
    }
}
