import Foundation
import Household
import Testing
@testable import Projections

@Suite("Household read models: a room's tasks", .timeLimit(.minutes(3)))
struct TaskViewTests {
    private let start = HouseholdFixture.start
    private let day: TimeInterval = 86_400

    /// ann's house `h1` with rooms `kitchen` and `hall`.
    private func houseWithRooms() async throws -> HouseholdFixture {
        let fixture = try await HouseholdFixture()
        try await fixture.createHouse("h1", by: "ann")
        try await fixture.join("h1", "bob")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "kitchen", name: "Kitchen"), by: "ann")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "hall", name: "Hall"), by: "ann")
        return fixture
    }

    private func addTask(_ fixture: HouseholdFixture, _ taskId: String, _ name: String, room: String = "kitchen", days: Int, points: Int = 1) async throws {
        try await fixture.run(
            .addTask(houseId: "h1", roomId: room, taskId: taskId, name: name, frequencyDays: days, points: points), by: "ann")
    }

    @Test func tasksCarryTheirLastCompletionAndAreSortedByPriorityThenName() async throws {
        let fixture = try await houseWithRooms()
        defer { fixture.close() }
        try await addTask(fixture, "t1", "Dishes", days: 1)
        try await addTask(fixture, "t2", "Floor", days: 7)
        try await addTask(fixture, "t3", "Windows", days: 30)
        try await addTask(fixture, "t4", "Coat rack", room: "hall", days: 7)
        try await fixture.complete("h1", "t1", by: "bob", at: start)
        try await fixture.complete("h1", "t2", by: "ann", at: start - day)
        try await fixture.complete("h1", "t2", by: "bob", at: start)

        let halfADayLater = try fixture.queries.tasks(house: "h1", room: "kitchen", now: start + day / 2)
        #expect(halfADayLater.map(\.name) == ["Windows", "Dishes", "Floor"])
        #expect(halfADayLater.map(\.priority) == [.high, .medium, .low], "never done is high")
        let dishes = try #require(halfADayLater.first { $0.taskId == "t1" })
        #expect(dishes == TaskView(
            taskId: "t1", roomId: "kitchen", name: "Dishes", frequencyDays: 1, points: 1, lastDoneAt: start,
            lastDoneBy: MemberView(userId: "bob", displayName: "Bob"), priority: .medium))
        #expect(halfADayLater.first { $0.taskId == "t2" }?.lastDoneBy?.userId == "bob", "the latest completion counts")
        #expect(halfADayLater.first { $0.taskId == "t3" }?.lastDoneAt == nil)

        let twoDaysLater = try fixture.queries.tasks(house: "h1", room: "kitchen", now: start + 2 * day)
        #expect(twoDaysLater.map(\.name) == ["Dishes", "Windows", "Floor"], "equal priorities sort by name")
        #expect(try fixture.queries.tasks(house: "h1", room: "hall", now: start).map(\.taskId) == ["t4"])
        #expect(try fixture.queries.tasks(house: "h1", room: "attic", now: start).isEmpty)
    }

    @Test func editsRemovalsAndRoomRemovalShowInTheList() async throws {
        let fixture = try await houseWithRooms()
        defer { fixture.close() }
        try await addTask(fixture, "t1", "Dishes", days: 1)
        try await addTask(fixture, "t2", "Floor", days: 7)
        try await addTask(fixture, "t3", "Coat rack", room: "hall", days: 7)
        try await fixture.complete("h1", "t1", by: "ann")
        try await fixture.run(.editTask(houseId: "h1", taskId: "t1", name: "Wash up", frequencyDays: 2, points: 5), by: "bob")
        let edited = try #require(try fixture.queries.tasks(house: "h1", room: "kitchen", now: start).first { $0.taskId == "t1" })
        #expect(edited.name == "Wash up" && edited.frequencyDays == 2 && edited.points == 5)
        #expect(edited.lastDoneAt == start && edited.lastDoneBy?.userId == "ann", "an edit keeps the last completion")

        try await fixture.run(.removeTask(houseId: "h1", taskId: "t2"), by: "ann")
        #expect(try fixture.queries.tasks(house: "h1", room: "kitchen", now: start).map(\.taskId) == ["t1"])

        try await fixture.run(.removeRoom(houseId: "h1", roomId: "kitchen"), by: "ann")
        #expect(try fixture.queries.tasks(house: "h1", room: "kitchen", now: start).isEmpty)
        #expect(try fixture.queries.tasks(house: "h1", room: "hall", now: start).map(\.taskId) == ["t3"])

        try await fixture.run(.leaveHouse(houseId: "h1"), by: "bob")
        try await fixture.run(.leaveHouse(houseId: "h1"), by: "ann")
        #expect(try fixture.queries.tasks(house: "h1", room: "hall", now: start).isEmpty, "a closed house keeps no tasks")
    }

    /// Completions are written without reading the task (`lastDone`); each removal takes its
    /// task's last completion with it, so nothing is left behind a task, a room or a house.
    @Test func removalsLeaveNoLastCompletionBehind() async throws {
        let fixture = try await houseWithRooms()
        defer { fixture.close() }
        try await addTask(fixture, "t1", "Dishes", days: 1)
        try await addTask(fixture, "t2", "Floor", days: 7)
        try await addTask(fixture, "t3", "Coat rack", room: "hall", days: 7)
        for task in ["t1", "t2", "t3"] { try await fixture.complete("h1", task, by: "bob") }
        #expect(try lastDoneKeys(fixture) == ["h1/hall/t3", "h1/kitchen/t1", "h1/kitchen/t2"].map(Self.key))

        try await fixture.run(.removeTask(houseId: "h1", taskId: "t1"), by: "ann")
        #expect(try lastDoneKeys(fixture) == ["h1/hall/t3", "h1/kitchen/t2"].map(Self.key))
        try await fixture.run(.removeRoom(houseId: "h1", roomId: "kitchen"), by: "ann")
        #expect(try lastDoneKeys(fixture) == ["h1/hall/t3"].map(Self.key))
        try await fixture.run(.leaveHouse(houseId: "h1"), by: "bob")
        try await fixture.run(.leaveHouse(houseId: "h1"), by: "ann")
        #expect(try lastDoneKeys(fixture).isEmpty, "a closed house keeps no completions")
    }

    /// `house/room/task` as `HouseholdKeys.task` makes it.
    private static func key(_ path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        return HouseholdKeys.task(house: parts[0], room: parts[1], task: parts[2])
    }

    private func lastDoneKeys(_ fixture: HouseholdFixture) throws -> [String] {
        try fixture.engine.read(HouseholdProjections.tasks) { reader in
            try reader.entries(TaskLastDone.self, in: HouseholdTasksProjection.lastDone, limit: .max).map(\.key)
        }
    }

    @Test func idsHoldingSlashesDoNotLeakIntoAnotherRoom() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        try await fixture.createHouse("h1", by: "ann")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "a", name: "A"), by: "ann")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "a/b", name: "AB"), by: "ann")
        try await addTask(fixture, "b/t", "In A", room: "a", days: 1)
        try await addTask(fixture, "t", "In A/B", room: "a/b", days: 1)
        #expect(try fixture.queries.tasks(house: "h1", room: "a", now: start).map(\.name) == ["In A"])
        #expect(try fixture.queries.tasks(house: "h1", room: "a/b", now: start).map(\.name) == ["In A/B"])
    }
}
