import EventLog
import EventSourcing
import Foundation
import Household

/// A household log shaped like real use: houses of four members with three rooms of three tasks
/// each, then task completions spread over the houses, which is what most of such a log is:
/// one completion in each house in turn, by each of its members in turn. Every event's actor is
/// the member whose command it was.
enum HouseholdLog {
    static let membersPerHouse = 4
    static let roomsPerHouse = 3
    static let tasksPerRoom = 3

    /// Appends about `events` household events (no fsync) and returns how many it wrote, each
    /// decided by `HouseholdDecider` from its command, as a server would.
    static func fill(_ store: LMDBEventStore, events: Int, sealer: EventSealer = .plain) async throws -> Int {
        let setupPerHouse = 1 + (membersPerHouse - 1) + roomsPerHouse + roomsPerHouse * tasksPerRoom
        let houses = max(1, events / 100)  // ~100 events per house: its setup, then completions
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var batch = DomainEventBatch(store: store, sealer: sealer)
        var state = HouseholdDecider.initialState
        func run(_ command: HouseholdCommand, by actor: String, at now: Date = start) async throws {
            try await batch.decide(command, with: HouseholdDecider.self, state: &state, by: actor, at: now)
        }
        for house in 0..<houses {
            let houseID = "h\(house)"
            let creator = "u\(house)-0"
            let joinCode = "code-\(house)-xxxxxxxxxxxxxxxxxxxx"
            try await run(.createHouse(houseId: houseID, name: "House \(house)", joinCode: joinCode, userId: creator, displayName: "Member 0"),
                          by: creator)
            for member in 1..<membersPerHouse {
                let userId = "u\(house)-\(member)"
                try await run(.joinHouse(houseId: houseID, joinCode: joinCode, userId: userId, displayName: "Member \(member)"), by: userId)
            }
            for room in 0..<roomsPerHouse {
                try await run(.addRoom(houseId: houseID, roomId: "r\(room)", name: "Room \(room)"), by: creator)
                for task in 0..<tasksPerRoom {
                    try await run(.addTask(houseId: houseID, roomId: "r\(room)", taskId: "t\(room)-\(task)", name: "Task \(task)",
                                           frequencyDays: 7, points: 5), by: creator)
                }
            }
        }
        let completions = max(0, events - houses * setupPerHouse)
        for index in 0..<completions {
            let house = index % houses
            let room = (index / houses) % roomsPerHouse
            let task = (index / (houses * roomsPerHouse)) % tasksPerRoom
            // Each round over the houses, the next member of each: every member completes tasks.
            let member = (index / houses) % membersPerHouse
            try await run(.completeTask(houseId: "h\(house)", taskId: "t\(room)-\(task)"), by: "u\(house)-\(member)",
                          at: start.addingTimeInterval(Double(index)))
        }
        return try await batch.finish()
    }
}
