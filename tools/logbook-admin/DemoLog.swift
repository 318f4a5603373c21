import EventLog
import EventSourcing
import Foundation
import Household

/// A week in a demo household: a house of two, two rooms, three tasks and their completions.
/// The events are the household domain's own, decided by `HouseholdDecider` from its commands,
/// so the server's read models fold a demo log like any other; the house is created on the
/// condition that its stream is new.
enum DemoLog {
    static let houseID = "demo"
    static var houseStream: String { HouseholdEvent.streamID(house: houseID) }

    /// Appends the story; returns the number of events written.
    static func seed(_ store: LMDBEventStore) async throws -> Int {
        var count = 0
        var state = HouseholdDecider.initialState
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        /// Decides `commands` for `actor` at `now` in turn and appends what they decided at once.
        func append(
            _ actor: String, _ commands: [HouseholdCommand], at now: Date = start, expect: [String: ExpectedVersion] = [:]
        ) async throws {
            var events: [HouseholdEvent] = []
            let metadata = CommandMetadata(actor: actor, now: now, commandID: UUID())
            for command in commands {
                let decided = try HouseholdDecider.decide(command, state: state, metadata: metadata)
                for event in decided { HouseholdDecider.evolve(&state, event) }
                events += decided
            }
            let proposed = try events.map {
                ProposedEvent(streamID: $0.streamID, type: $0.typeName, schemaVersion: $0.schemaVersion, tags: $0.tags, data: try $0.encodeData())
            }
            let result = try await store.append(AppendRequest(events: proposed, expectedVersions: expect, metadata: AppendMetadata(actor: actor)))
            count += Int(result.lastPosition - result.firstPosition + 1)
        }
        let joinCode = "demo-join-code-0123456789abcdef"
        try await append("user-ann", [.createHouse(houseId: houseID, name: "Canal House", joinCode: joinCode, userId: "user-ann", displayName: "Ann")],
                         expect: [houseStream: .noStream])
        try await append("user-bob", [.joinHouse(houseId: houseID, joinCode: joinCode, userId: "user-bob", displayName: "Bob")])
        try await append("user-ann", [.addRoom(houseId: houseID, roomId: "kitchen", name: "Kitchen"),
                                      .addRoom(houseId: houseID, roomId: "bathroom", name: "Bathroom")])
        let tasks = [("kitchen", "dishes", "Dishes", 1, 5), ("kitchen", "floor", "Mop floor", 7, 20), ("bathroom", "shower", "Clean shower", 7, 15)]
        try await append("user-ann", tasks.map { roomID, taskID, name, days, points in
            .addTask(houseId: houseID, roomId: roomID, taskId: taskID, name: name, frequencyDays: days, points: points)
        })
        for day in 0..<7 {
            let user = day % 2 == 0 ? "user-ann" : "user-bob"
            try await append(user, [.completeTask(houseId: houseID, taskId: tasks[day % tasks.count].1)],
                             at: start.addingTimeInterval(Double(day) * 86_400))
        }
        return count
    }
}
