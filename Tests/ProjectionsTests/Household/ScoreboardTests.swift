import Foundation
import Household
import Testing
@testable import Projections

@Suite("Household read models: scoreboard", .timeLimit(.minutes(3)))
struct ScoreboardTests {
    @Test func membersRankByPointsThenNameThenIdWithZeroPointMembersAndWithoutFormerOnes() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        try await fixture.createHouse("h1", by: "ann")
        for user in ["bob", "cara", "eve"] { try await fixture.join("h1", user) }
        // Two members with one display name: the user id settles their order.
        try await fixture.join("h1", "u2", displayName: "Sam")
        try await fixture.join("h1", "u1", displayName: "Sam")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "r1", name: "Kitchen"), by: "ann")
        try await fixture.run(.addTask(houseId: "h1", roomId: "r1", taskId: "big", name: "Floor", frequencyDays: 7, points: 5), by: "ann")
        try await fixture.run(.addTask(houseId: "h1", roomId: "r1", taskId: "small", name: "Dishes", frequencyDays: 1, points: 2), by: "ann")
        try await fixture.complete("h1", "small", by: "bob")
        try await fixture.complete("h1", "big", by: "bob")
        try await fixture.complete("h1", "big", by: "ann")
        try await fixture.complete("h1", "small", by: "ann")
        try await fixture.complete("h1", "big", by: "cara")
        try await fixture.complete("h1", "big", by: "eve")
        try await fixture.complete("h1", "big", by: "eve")
        try await fixture.run(.leaveHouse(houseId: "h1"), by: "eve")

        let expected: [ScoreboardEntry] = [
            .init(userId: "ann", displayName: "Ann", points: 7),
            .init(userId: "bob", displayName: "Bob", points: 7),
            .init(userId: "cara", displayName: "Cara", points: 5),
            .init(userId: "u1", displayName: "Sam", points: 0),
            .init(userId: "u2", displayName: "Sam", points: 0),
        ]
        #expect(try fixture.queries.scoreboard(house: "h1") == expected)
        #expect(try fixture.queries.scoreboard(house: "nope").isEmpty)

        // A returning member's total agrees with the history, which never forgot their work.
        try await fixture.join("h1", "eve")
        #expect(try fixture.queries.scoreboard(house: "h1").first == .init(userId: "eve", displayName: "Eve", points: 10))
    }
}
