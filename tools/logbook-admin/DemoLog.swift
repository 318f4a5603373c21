import EventLog
import EventSourcing
import Foundation
import Household

/// A week in a demo household: a house of two, two rooms, three tasks and their completions.
/// The events are the household domain's own (`HouseholdEvent`), so the server's read models
/// fold a demo log like any other; the house is created on the condition that its stream is new.
enum DemoLog {
    static let houseID = "demo"
    static var houseStream: String { HouseholdEvent.streamID(house: houseID) }

    /// Appends the story; returns the number of events written.
    static func seed(_ store: LMDBEventStore) async throws -> Int {
        var count = 0
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func append(_ actor: String, _ events: [HouseholdEvent], expect: [String: ExpectedVersion] = [:]) async throws {
            let proposed = try events.map {
                ProposedEvent(streamID: $0.streamID, type: $0.typeName, schemaVersion: $0.schemaVersion, tags: $0.tags, data: try $0.encodeData())
            }
            let result = try await store.append(AppendRequest(events: proposed, expectedVersions: expect, metadata: AppendMetadata(actor: actor)))
            count += Int(result.lastPosition - result.firstPosition + 1)
        }
        try await append("user-ann", [.houseCreated(.init(houseId: houseID, name: "Canal House", joinCode: "demo-join-code-0123456789abcdef",
                                                         creatorId: "user-ann", creatorDisplayName: "Ann"))],
                         expect: [houseStream: .noStream])
        try await append("user-bob", [.memberJoined(.init(houseId: houseID, userId: "user-bob", displayName: "Bob"))])
        try await append("user-ann", [.roomAdded(.init(houseId: houseID, roomId: "kitchen", name: "Kitchen")),
                                      .roomAdded(.init(houseId: houseID, roomId: "bathroom", name: "Bathroom"))])
        let tasks = [("kitchen", "Kitchen", "dishes", "Dishes", 1, 5), ("kitchen", "Kitchen", "floor", "Mop floor", 7, 20),
                     ("bathroom", "Bathroom", "shower", "Clean shower", 7, 15)]
        try await append("user-ann", tasks.map { roomID, _, taskID, name, days, points in
            .taskAdded(.init(houseId: houseID, roomId: roomID, taskId: taskID, name: name, frequencyDays: days, points: points))
        })
        for day in 0..<7 {
            let (user, name) = day % 2 == 0 ? ("user-ann", "Ann") : ("user-bob", "Bob")
            let (roomID, roomName, taskID, taskName, _, points) = tasks[day % tasks.count]
            try await append(user, [.taskCompleted(.init(
                houseId: houseID, taskId: taskID, taskName: taskName, roomId: roomID, roomName: roomName,
                userId: user, displayName: name, points: points, completedAt: start.addingTimeInterval(Double(day) * 86_400)
            ))])
        }
        return count
    }
}
