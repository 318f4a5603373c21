import Foundation
import LogbookClient
import TestSupport
import Testing

/// A whole household played through LogbookClient alone, against the real server binary, which
/// keeps it across a restart.
@Suite("Client: a household flow", .timeLimit(.minutes(3)))
struct ClientHouseholdFlowTests {
    @Test func aHouseholdIsPlayedThroughTheClientAndSurvivesARestart() async throws {
        let directory = TemporaryDataDirectory()
        var server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_SECRET_KEY": ""], capturingStandardError: true)
        let ann = try LogbookClient(serverURL: URL(string: server.address)!)
        let bob = try LogbookClient(serverURL: URL(string: server.address)!)
        let cat = try LogbookClient(serverURL: URL(string: server.address)!)
        try await ann.register(email: "ann@example.org", password: "correct horse", displayName: "Ann")
        try await bob.register(email: "bob@example.org", password: "correct horse", displayName: "Bob")
        try await cat.register(email: "cat@example.org", password: "correct horse", displayName: "Cat")
        #expect(ann.sessionState.userId != nil)

        let house = try await ann.run { try await $0.createHouse(body: .json(.init(name: "Canal House"))).created.body.json }
        let joined = try await bob.run { try await $0.joinHouse(body: .json(.init(joinCode: house.joinCode))).ok.body.json }
        #expect(joined.houseId == house.houseId)
        let room = try await ann.run { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: "Kitchen"))).created.body.json }
        let task = try await ann.run {
            try await $0.addTask(path: .init(houseId: house.houseId, roomId: room.roomId), body: .json(.init(name: "Dishes", frequencyDays: 1, points: 5))).created.body.json
        }
        // Bob once, then Ann twice: Ann ends ahead, and the newest completion is hers.
        for client in [bob, ann, ann] {
            let done = try await client.run { try await $0.completeTask(path: .init(houseId: house.houseId, taskId: task.taskId)).created.body.json }
            #expect(done.pointsAwarded == 5)
        }
        let board = try await bob.run { try await $0.getScoreboard(path: .init(houseId: house.houseId)).ok.body.json }
        let standings = board.members.map { "\($0.displayName)=\($0.points)" }
        #expect(standings == ["Ann=10", "Bob=5"])
        let history = try await ann.run { try await $0.getHouseHistory(path: .init(houseId: house.houseId)).ok.body.json }
        #expect(history.items.map(\.displayName) == ["Ann", "Ann", "Bob"], "newest first")
        #expect(history.items.allSatisfy { $0.taskName == "Dishes" && $0.roomName == "Kitchen" })
        let times = history.items.map(\.doneAt)
        #expect(times == times.sorted(by: >))

        // A stranger's reads are refused, as typed problems.
        await #expect(throws: LogbookProblem.self) { try await cat.run { try await $0.getHouse(path: .init(houseId: house.houseId)).ok } }
        do {
            _ = try await cat.run { try await $0.getScoreboard(path: .init(houseId: house.houseId)).ok }
            Issue.record("a stranger read the scoreboard")
        } catch let problem as LogbookProblem {
            #expect(problem.status == 403 && problem.code == "not_a_member", "\(problem)")
        }

        #expect(try await server.terminate(), "exit 0 within 20 s of SIGTERM")
        let writeAheadFiles = ["checkpoint", "wal-0", "wal-1"].map { directory.path + "/log/" + $0 }
        #expect(writeAheadFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the log is in its write-ahead mode by default")

        // Same data directory, out of the write-ahead mode: the log and the read models (resuming
        // from their checkpoints) are still there, and so are the sessions.
        server = try await ServerProcess(dataDirectory: directory.path, arguments: ["--no-write-ahead"], environment: ["LOGBOOK_SECRET_KEY": ""], capturingStandardError: true)
        let bobAgain = try LogbookClient(.init(serverURL: URL(string: server.address)!, credentials: MemoryCredentialStore(bob.credentials)))
        let after = try await bobAgain.run { try await $0.getScoreboard(path: .init(houseId: house.houseId)).ok.body.json }
        #expect(after.members.map { "\($0.displayName)=\($0.points)" } == standings)
        let annAgain = try LogbookClient(serverURL: URL(string: server.address)!)
        try await annAgain.signIn(email: "ann@example.org", password: "correct horse")
        let historyAfter = try await annAgain.run { try await $0.getHouseHistory(path: .init(houseId: house.houseId)).ok.body.json }
        #expect(historyAfter.items.count == 3)
        try await annAgain.signOut()
        #expect(annAgain.sessionState == .signedOut(reason: .requested))
        #expect(try await server.terminate())
        #expect(writeAheadFiles.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "the log left the mode")
    }
}
