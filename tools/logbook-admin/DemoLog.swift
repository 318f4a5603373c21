import EventLog
import Foundation

/// A week in a demo household: two accounts, a house, rooms, tasks and their completions.
/// Appended with the same conditions the apps will use (e-mail uniqueness by tag condition,
/// expected versions on the house), so the demo log exercises the real append path.
enum DemoLog {
    static let houseStream = "house-demo"

    /// Appends the story; returns the number of events written.
    static func seed(_ store: LMDBEventStore) async throws -> Int {
        var count = 0
        func append(_ actor: String, _ events: [ProposedEvent], expect: [String: ExpectedVersion] = [:],
                    condition: AppendCondition? = nil) async throws {
            let result = try await store.append(AppendRequest(
                events: events, expectedVersions: expect, condition: condition, metadata: AppendMetadata(actor: actor)
            ))
            count += Int(result.lastPosition - result.firstPosition + 1)
        }
        for (user, email, name) in [("user-ann", "ann@example.org", "Ann"), ("user-bob", "bob@example.org", "Bob")] {
            let unique = EventQuery(types: ["account.registered"], tags: ["email:\(email)"])
            try await append(user, [event("account-\(user.dropFirst(5))", "account.registered", ["email:\(email)"],
                                          #"{"userId":"\#(user)","email":"\#(email)","displayName":"\#(name)"}"#)],
                             condition: AppendCondition(failIfEventsMatch: unique, after: try store.headPosition()))
        }
        try await append("user-ann", [event(houseStream, "household.houseCreated", ["user:user-ann"], #"{"name":"Canal House","by":"user-ann"}"#)],
                         expect: [houseStream: .noStream])
        try await append("user-bob", [event(houseStream, "household.memberJoined", ["user:user-bob"], #"{"userId":"user-bob"}"#)])
        let tasks = [("kitchen", "Dishes", 1, 5), ("kitchen", "Mop floor", 7, 20), ("bathroom", "Clean shower", 7, 15)]
        for room in Set(tasks.map(\.0)).sorted() {
            try await append("user-ann", [event(houseStream, "household.roomAdded", [], #"{"roomId":"\#(room)","name":"\#(room.capitalized)"}"#)])
        }
        for (room, name, days, points) in tasks {
            try await append("user-ann", [event(houseStream, "household.taskAdded", [],
                                                #"{"roomId":"\#(room)","name":"\#(name)","frequencyDays":\#(days),"points":\#(points)}"#)])
        }
        for day in 0..<7 {
            let user = day % 2 == 0 ? "user-ann" : "user-bob"
            let (_, name, _, points) = tasks[day % tasks.count]
            try await append(user, [event(houseStream, "household.taskCompleted", ["user:\(user)"],
                                          #"{"task":"\#(name)","points":\#(points),"day":\#(day)}"#)])
        }
        return count
    }

    private static func event(_ stream: String, _ type: String, _ tags: [String], _ json: String) -> ProposedEvent {
        let houseTags = stream == houseStream ? tags + ["house:demo"] : tags
        return ProposedEvent(streamID: stream, type: type, tags: houseTags, data: Data(json.utf8))
    }
}
