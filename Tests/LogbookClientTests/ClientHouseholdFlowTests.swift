import Foundation
import LogbookClient
import Testing

/// A whole household played through LogbookClient alone, against the real server.
@Suite("Client: a household flow", .timeLimit(.minutes(3)))
struct ClientHouseholdFlowTests {
    @Test func twoMembersPlayAHouseholdThroughTheClientOnly() async throws {
        let server = try await ClientServer()
        let ann = try server.client()
        let bob = try server.client()
        try await ann.register(email: "ann@example.org", password: "correct horse", displayName: "Ann")
        try await bob.register(email: "bob@example.org", password: "correct horse", displayName: "Bob")
        #expect(ann.sessionState.userId != nil)

        let house = try await ann.run { try await $0.createHouse(body: .json(.init(name: "Canal House"))).created.body.json }
        _ = try await bob.run { try await $0.joinHouse(body: .json(.init(joinCode: house.joinCode))).ok.body.json }
        let room = try await ann.run { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: "Kitchen"))).created.body.json }
        let task = try await ann.run {
            try await $0.addTask(path: .init(houseId: house.houseId, roomId: room.roomId), body: .json(.init(name: "Dishes", frequencyDays: 1, points: 5))).created.body.json
        }
        for client in [bob, ann, ann] {
            let done = try await client.run { try await $0.completeTask(path: .init(houseId: house.houseId, taskId: task.taskId)).created.body.json }
            #expect(done.pointsAwarded == 5)
        }
        let board = try await bob.run { try await $0.getScoreboard(path: .init(houseId: house.houseId)).ok.body.json }
        #expect(board.members.map { "\($0.displayName)=\($0.points)" } == ["Ann=10", "Bob=5"])

        try await bob.signOut()
        #expect(bob.sessionState == .signedOut(reason: .requested))
        try await bob.signIn(email: "bob@example.org", password: "correct horse")
        let again = try await bob.run { try await $0.getScoreboard(path: .init(houseId: house.houseId)).ok.body.json }
        #expect(again.members.count == 2)
    }
}
