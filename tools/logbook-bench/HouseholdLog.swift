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

    /// Appends about `events` household events (no fsync) and returns how many it wrote.
    static func fill(_ store: LMDBEventStore, events: Int, sealer: EventSealer = .plain) async throws -> Int {
        let setupPerHouse = 1 + (membersPerHouse - 1) + roomsPerHouse + roomsPerHouse * tasksPerRoom
        let houses = max(1, events / 100)  // ~100 events per house: its setup, then completions
        var batch = DomainEventBatch(store: store, sealer: sealer)
        for house in 0..<houses {
            let houseID = "h\(house)"
            let creator = "u\(house)-0"
            try await batch.add(HouseholdEvent.houseCreated(.init(houseId: houseID, name: "House \(house)", joinCode: "code-\(house)-xxxxxxxxxxxxxxxxxxxx",
                                             creatorId: creator, creatorDisplayName: "Member 0")), by: creator)
            for member in 1..<membersPerHouse {
                let userId = "u\(house)-\(member)"
                try await batch.add(HouseholdEvent.memberJoined(.init(houseId: houseID, userId: userId, displayName: "Member \(member)")), by: userId)
            }
            for room in 0..<roomsPerHouse {
                try await batch.add(HouseholdEvent.roomAdded(.init(houseId: houseID, roomId: "r\(room)", name: "Room \(room)")), by: creator)
                for task in 0..<tasksPerRoom {
                    try await batch.add(HouseholdEvent.taskAdded(.init(houseId: houseID, roomId: "r\(room)", taskId: "t\(room)-\(task)",
                                                   name: "Task \(task)", frequencyDays: 7, points: 5)), by: creator)
                }
            }
        }
        let completions = max(0, events - houses * setupPerHouse)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<completions {
            let house = index % houses
            let room = (index / houses) % roomsPerHouse
            let task = (index / (houses * roomsPerHouse)) % tasksPerRoom
            // Each round over the houses, the next member of each: every member completes tasks.
            let member = (index / houses) % membersPerHouse
            let userId = "u\(house)-\(member)"
            try await batch.add(HouseholdEvent.taskCompleted(.init(
                houseId: "h\(house)", taskId: "t\(room)-\(task)", taskName: "Task \(task)", roomId: "r\(room)", roomName: "Room \(room)",
                userId: userId, displayName: "Member \(member)", points: 5, completedAt: start.addingTimeInterval(Double(index))
            )), by: userId)
        }
        return try await batch.finish()
    }
}
