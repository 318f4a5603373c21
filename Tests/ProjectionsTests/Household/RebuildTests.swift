import EventLog
import Foundation
import Household
import Testing
@testable import Projections

@Suite("Household read models: rebuild", .timeLimit(.minutes(3)))
struct RebuildTests {
    private let start = HouseholdFixture.start
    private let day: TimeInterval = 86_400

    /// Every answer the household queries give about the fixture's houses, users and codes.
    private struct Snapshot: Equatable {
        var houses: [HouseView?] = []
        var memberships: [String?] = []
        var joinCodes: [String?] = []
        var tasks: [[TaskView]] = []
        var history: [[HistoryItem]] = []
        var scoreboards: [[ScoreboardEntry]] = []
    }

    private static let houses = ["h1", "h2", "h3"]
    private static let users = ["ann", "bob", "cara", "dan", "eve", "finn"]
    private static let rooms = ["kitchen", "bath", "hall"]
    private static let codes = houses.map(joinCode) + ["rotated-1", "rotated-2"].map(joinCode)

    private func snapshot(_ queries: HouseholdQueries<LMDBEventStore>, now: Date) async throws -> Snapshot {
        var snapshot = Snapshot()
        for house in Self.houses {
            snapshot.houses.append(try queries.house(id: house))
            snapshot.scoreboards.append(try queries.scoreboard(house: house))
            for room in Self.rooms { snapshot.tasks.append(try queries.tasks(house: house, room: room, now: now)) }
            var page = try await queries.history(house: house, limit: 4, cursor: nil)
            snapshot.history.append(page.items)
            while let next = page.next {
                page = try await queries.history(house: house, limit: 4, cursor: next)
                snapshot.history.append(page.items)
            }
        }
        snapshot.memberships = try Self.users.map { try queries.houseOf(user: $0) }
        snapshot.joinCodes = try Self.codes.map { try queries.house(joinCode: $0) }
        return snapshot
    }

    /// Three houses' worth of living: joins, leaves, a closed house, rotations, rooms and tasks
    /// added, renamed, edited and removed, and completions spread over days.
    private func liveALittle(_ fixture: HouseholdFixture) async throws {
        try await fixture.createHouse("h1", by: "ann", name: "Canal House")
        try await fixture.createHouse("h2", by: "dan", name: "Attic Flat")
        for user in ["bob", "cara"] { try await fixture.join("h1", user) }
        try await fixture.join("h2", "eve")
        for (house, actor) in [("h1", "ann"), ("h2", "dan")] {
            for (index, room) in Self.rooms.enumerated() {
                try await fixture.run(.addRoom(houseId: house, roomId: room, name: room.capitalized), by: actor)
                for task in 0..<3 {
                    try await fixture.run(.addTask(
                        houseId: house, roomId: room, taskId: "\(room)-\(task)", name: "Task \(task) of \(room)",
                        frequencyDays: 1 + task * 3, points: 1 + index + task), by: actor)
                }
            }
        }
        for step in 0..<40 {
            let (house, members) = step.isMultiple(of: 3) ? ("h2", ["dan", "eve"]) : ("h1", ["ann", "bob", "cara"])
            let task = "\(Self.rooms[step % 3])-\(step % 2)"
            try await fixture.complete(house, task, by: members[step % members.count], at: start + Double(step) * day / 4)
        }
        try await fixture.run(.rotateJoinCode(houseId: "h1", joinCode: joinCode("rotated-1")), by: "bob")
        try await fixture.run(.renameRoom(houseId: "h1", roomId: "hall", name: "Corridor"), by: "cara")
        try await fixture.run(.editTask(houseId: "h1", taskId: "kitchen-0", name: "Dishes", frequencyDays: 2, points: 4), by: "ann")
        try await fixture.run(.removeTask(houseId: "h1", taskId: "bath-1"), by: "ann")
        try await fixture.run(.removeRoom(houseId: "h2", roomId: "bath"), by: "dan")
        try await fixture.run(.leaveHouse(houseId: "h1"), by: "cara")
        try await fixture.createHouse("h3", by: "cara")
        try await fixture.join("h3", "finn")
        try await fixture.run(.rotateJoinCode(houseId: "h3", joinCode: joinCode("rotated-2")), by: "finn")
        try await fixture.run(.leaveHouse(houseId: "h2"), by: "eve")
        try await fixture.run(.leaveHouse(houseId: "h2"), by: "dan")
        try await fixture.complete("h1", "kitchen-0", by: "bob", at: start + 11 * day)
    }

    @Test func aRebuildOfEveryProjectionAnswersExactlyAsTheLiveOnes() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        try await liveALittle(fixture)
        let now = start + 12 * day
        let live = try await snapshot(fixture.queries, now: now)
        #expect(live.history.joined().count == 41)
        #expect(live.houses.compactMap { $0 }.count == 3 && live.houses[1]?.isClosed == true)

        for projection in HouseholdProjections.all { try await fixture.engine.rebuild(projection.name) }
        let status = try await fixture.engine.status()
        #expect(status.allSatisfy { $0.generation == 1 && $0.lag == 0 })
        #expect(try await snapshot(fixture.queries, now: now) == live)
    }

    /// Completions recorded while rebuilds of the history and the houses (scoreboards) are
    /// paused before their swap reach the new copies through the swap's catch-up: afterwards
    /// every query answers as the live copies did, completions included.
    @Test func completionsDuringARebuildAreInTheSwappedCopy() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        try await liveALittle(fixture)
        for projection: any Projection in [HouseholdProjections.history, HouseholdProjections.houses] {
            let pause = RebuildPause(fixture.engine) { step, _ in if case .reachedEnd = step { true } else { false } }
            let engine = fixture.engine, name = projection.name
            let rebuild = Task { try await engine.rebuild(name) }
            _ = await pause.untilPaused()
            for step in 0..<3 {
                try await fixture.complete("h1", "kitchen-1", by: "bob", at: start + 13 * day + Double(step) * day)
            }
            let live = try await snapshot(fixture.queries, now: start + 20 * day)
            pause.resume()
            try await rebuild.value
            let swap = pause.steps.compactMap { step -> Int? in if case let .swapping(_, _, _, missing) = step { missing } else { nil } }
            #expect(swap == [3], "\(projection.name): the swap applied the three completions it lacked")
            #expect(try await snapshot(fixture.queries, now: start + 20 * day) == live, "\(projection.name)")
            #expect(try await fixture.engine.status().first { $0.name == projection.name }?.generation == 1)
        }
    }
}
