import Foundation
import LogbookClient

// `household-app <server URL>`: signs in to `logbook serve --demo` as Ann, watches her house's
// scoreboard, completes one of its tasks, and exits 0 once the scoreboard shows her points risen.
guard CommandLine.arguments.count == 2, let serverURL = URL(string: CommandLine.arguments[1]) else {
    print("usage: household-app <server URL, such as http://localhost:8080>")
    exit(2)
}
// A completion the scoreboard never shows fails the program instead of holding it for ever.
Task {
    try await Task.sleep(for: .seconds(30))
    print("household-app: the scoreboard did not show the completion within 30 s")
    exit(1)
}

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// Ann's points on the scoreboard before and after she completes a task.
func completeATask(serverURL: URL, storage: URL) async throws -> (before: Int, after: Int) {
    let logbook = try LogbookClient(.init(serverURL: serverURL, storageDirectory: storage))
    let me = try await logbook.signIn(email: "ann@example.org", password: "demo-password")
    let house = try await logbook.run { try await $0.getMyHouse().ok.body.json }
    guard let room = house.rooms.first else { throw Failure(description: "her house has no room") }
    let tasks = try await logbook.run { try await $0.listRoomTasks(path: .init(houseId: house.houseId, roomId: room.roomId)).ok.body.json.tasks }
    guard let task = tasks.first else { throw Failure(description: "the room \(room.name) has no task") }

    let scoreboard = logbook.watch(topics: ["house:\(house.houseId)"]) { try await $0.getScoreboard(path: .init(houseId: house.houseId)).ok.body.json }
    var before: Int?
    for try await board in scoreboard where !board.isStale {
        let points = board.value.members.first { $0.userId == me.userId }?.points ?? 0
        if let before, points > before { return (before, points) }
        if before == nil {
            before = points
            let delivery = try await logbook.send { try await $0.completeTask(path: .init(houseId: house.houseId, taskId: task.taskId)).created.body.json }
            if case .queued = delivery { print("household-app: the server is unreachable; the completion waits in the outbox") }
        }
    }
    throw Failure(description: "the watch ended")
}

// Where the client keeps its outbox and the watched values (an app: its Application Support).
let storage = FileManager.default.temporaryDirectory.appendingPathComponent("household-app-\(UUID().uuidString)")
var status: Int32 = 1
do {
    let points = try await completeATask(serverURL: serverURL, storage: storage)
    print("Ann's points: \(points.before) before, \(points.after) after")
    status = 0
} catch let problem as LogbookProblem {
    print("household-app: the server refused: \(problem)")
} catch {
    print("household-app: \(error)")
}
try? FileManager.default.removeItem(at: storage)
exit(status)
