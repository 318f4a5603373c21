import EventSourcing
import Foundation
import Testing
@testable import Household

/// Adding, editing, removing and completing tasks, and the points they earn.
@Suite("Household tasks")
struct TaskTests {
    typealias D = HouseholdDecider
    let house = Fixture.house
    let home = Fixture.kitchenWithDishes

    func add(_ name: String = "Floor", frequencyDays: Int = 7, points: Int = 10, room: String = Fixture.kitchen,
             id: String = Fixture.floor) -> HouseholdCommand {
        .addTask(houseId: house, roomId: room, taskId: id, name: name, frequencyDays: frequencyDays, points: points)
    }

    func edit(name: String? = nil, frequencyDays: Int? = nil, points: Int? = nil) -> HouseholdCommand {
        .editTask(houseId: house, taskId: Fixture.dishes, name: name, frequencyDays: frequencyDays, points: points)
    }

    func complete(_ taskId: String = Fixture.dishes) -> HouseholdCommand {
        .completeTask(houseId: house, taskId: taskId)
    }

    @Test func membersAddTasksToARoom() throws {
        #expect(try D.given(home).when(add(" Floor "), Fixture.by(Fixture.bob)).get()
            == [Fixture.taskAdded(Fixture.floor, name: "Floor", frequencyDays: 7, points: 10)])
    }

    @Test(arguments: [(1, 1), (365, 100)])
    func boundsAreInclusive(frequencyDays: Int, points: Int) throws {
        #expect(try D.given(home).when(add(frequencyDays: frequencyDays, points: points), Fixture.by(Fixture.ann)).get().count == 1)
    }

    @Test(arguments: [(0, 5, ["frequencyDays"]), (366, 5, ["frequencyDays"]), (7, 0, ["points"]), (7, 101, ["points"]),
                      (-1, -1, ["frequencyDays", "points"])])
    func frequencyAndPointsAreInRange(frequencyDays: Int, points: Int, fields: [String]) {
        let failure = D.given(home).when(add(frequencyDays: frequencyDays, points: points), Fixture.by(Fixture.ann)).failure
        #expect(failure?.code == "validation_failed")
        #expect(failure?.fieldErrors.map(\.field) == fields)
    }

    @Test func taskNamesAreValidatedWithTheNumbers() {
        let failure = D.given(home).when(add("  ", points: 500), Fixture.by(Fixture.ann)).failure
        #expect(failure?.fieldErrors.map(\.field) == ["name", "points"])
        let long = D.given(home).when(add(String(repeating: "t", count: 101)), Fixture.by(Fixture.ann)).failure
        #expect(long?.fieldErrors.map(\.field) == ["name"])
    }

    @Test func addingNeedsAKnownRoomAFreshIdAndMembership() {
        #expect(D.given(home).when(add(room: Fixture.bathroom), Fixture.by(Fixture.ann)).failure == .roomNotFound)
        #expect(D.given(home).when(add(id: Fixture.dishes), Fixture.by(Fixture.ann)).failure == .idTaken)
        #expect(D.given(home).when(add(), Fixture.by(Fixture.cat)).failure == .notAMember)
    }

    @Test func editingChangesOnlyTheGivenFieldsAndCarriesTheResult() throws {
        #expect(try D.given(home).when(edit(points: 8), Fixture.by(Fixture.bob)).get() == [.taskEdited(.init(
            houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes, name: "Dishes", frequencyDays: 1, points: 8))])
        #expect(try D.given(home).when(edit(name: " Wash up ", frequencyDays: 2), Fixture.by(Fixture.bob)).get() == [.taskEdited(.init(
            houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes, name: "Wash up", frequencyDays: 2, points: 5))])
    }

    @Test func editingToTheSameValuesOrNothingIsNoEvent() throws {
        #expect(try D.given(home).when(edit(), Fixture.by(Fixture.ann)).get().isEmpty)
        #expect(try D.given(home).when(edit(name: "Dishes", frequencyDays: 1, points: 5), Fixture.by(Fixture.ann)).get().isEmpty)
    }

    @Test func editingValidatesTheGivenFieldsAndNeedsAKnownTask() {
        #expect(D.given(home).when(edit(name: "", frequencyDays: 400, points: 0), Fixture.by(Fixture.ann)).failure?
            .fieldErrors.map(\.field) == ["name", "frequencyDays", "points"])
        let unknown = HouseholdCommand.editTask(houseId: house, taskId: Fixture.sink, name: "Sink", frequencyDays: nil, points: nil)
        #expect(D.given(home).when(unknown, Fixture.by(Fixture.ann)).failure == .taskNotFound)
        #expect(D.given(home).when(edit(points: 3), Fixture.by(Fixture.cat)).failure == .notAMember)
    }

    @Test func removingATaskNamesItsRoom() throws {
        let remove = HouseholdCommand.removeTask(houseId: house, taskId: Fixture.dishes)
        #expect(try D.given(home).when(remove, Fixture.by(Fixture.ann)).get()
            == [.taskRemoved(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes))])
        let removeUnknown = HouseholdCommand.removeTask(houseId: house, taskId: Fixture.sink)
        #expect(D.given(home).when(removeUnknown, Fixture.by(Fixture.ann)).failure == .taskNotFound)
        #expect(D.given(home).when(remove, Fixture.by(Fixture.cat)).failure == .notAMember)
    }

    @Test func completingRecordsWhoWhenAndTheCurrentNamesAndPoints() throws {
        let events = try D.given(home).when(complete(), Fixture.by(Fixture.bob)).get()
        #expect(events == [Fixture.completed(by: Fixture.bob)])
        #expect(D.fold(home + events).totalPoints(of: Fixture.bob, in: house) == 5)
    }

    @Test func completingAwardsThePointsAsTheyAreNow() throws {
        let edited = home + [.taskEdited(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes,
                                               name: "Wash up", frequencyDays: 1, points: 9))]
        let events = try D.given(edited).when(complete(), Fixture.by(Fixture.ann)).get()
        #expect(events == [Fixture.completed(by: Fixture.ann, points: 9, taskName: "Wash up")])
    }

    @Test func completingARemovedOrUnknownTaskIsTaskNotFound() {
        let removed = home + [.taskRemoved(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes))]
        #expect(D.given(removed).when(complete(), Fixture.by(Fixture.ann)).failure == .taskNotFound)
        let roomGone = home + [.taskRemoved(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes)),
                               .roomRemoved(.init(houseId: house, roomId: Fixture.kitchen))]
        #expect(D.given(roomGone).when(complete(), Fixture.by(Fixture.ann)).failure == .taskNotFound)
        #expect(D.given(home).when(complete(Fixture.sink), Fixture.by(Fixture.ann)).failure == .taskNotFound)
    }

    @Test func onlyMembersCompleteTasks() {
        #expect(D.given(home).when(complete(), Fixture.by(Fixture.cat)).failure == .notAMember)
    }

    @Test func theStateTotalsEachMembersPoints() {
        let later = Fixture.now.addingTimeInterval(3_600)
        let state = D.fold(home + [
            Fixture.completed(by: Fixture.ann), Fixture.completed(by: Fixture.bob, points: 7),
            Fixture.completed(by: Fixture.ann, points: 3, at: later),
        ])
        #expect(state.totalPoints(of: Fixture.ann, in: house) == 8)
        #expect(state.totalPoints(of: Fixture.bob, in: house) == 7)
        #expect(state.totalPoints(of: Fixture.cat, in: house) == 0)
    }

    @Test func pointsSurviveLeavingAndRejoiningLikeTheHistoryDoes() {
        let state = D.fold(home + [Fixture.completed(by: Fixture.bob), Fixture.left(Fixture.bob), Fixture.joined(Fixture.bob)])
        #expect(state.totalPoints(of: Fixture.bob, in: house) == 5)
    }
}
