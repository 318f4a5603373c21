import Foundation
import LogbookClient

/// A house with one room and one task (Dishes, 5 points), made through a member's client.
struct TestHouse {
    let houseId: String
    let joinCode: String
    let taskId: String
    /// The log position of the task's creation: what came before is the set-up.
    let position: Int64

    var topic: String { "house:\(houseId)" }
    var completionsPath: String { "/v1/houses/\(houseId)/tasks/\(taskId)/completions" }

    init(by client: LogbookClient) async throws {
        let house = try await client.run { try await $0.createHouse(body: .json(.init(name: "Canal House"))).created.body.json }
        let room = try await client.run { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: "Kitchen"))).created.body.json }
        let task = try await client.run {
            try await $0.addTask(path: .init(houseId: house.houseId, roomId: room.roomId), body: .json(.init(name: "Dishes", frequencyDays: 1, points: 5))).created.body.json
        }
        houseId = house.houseId
        joinCode = house.joinCode
        taskId = task.taskId
        position = task.position
    }

    /// Completes the task as `client`'s user; the answer's log position.
    @discardableResult
    func complete(by client: LogbookClient) async throws -> Int64 {
        try await client.run { try await $0.completeTask(path: .init(houseId: houseId, taskId: taskId)).created.body.json }.position
    }
}

extension LogbookClient {
    /// A client registered as a new user (password `correct horse`).
    @discardableResult
    func registered(_ name: String) async throws -> LogbookClient {
        try await register(email: "\(name.lowercased())-\(UUID().uuidString.prefix(8))@example.org", password: "correct horse", displayName: name)
        return self
    }
}
