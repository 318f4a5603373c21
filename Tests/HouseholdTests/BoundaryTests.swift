import EventSourcing
import Testing
@testable import Household

/// Which events each command is decided on, and how the state reads memberships of other houses.
@Suite("Household boundary")
struct BoundaryTests {
    typealias D = HouseholdDecider
    let house = Fixture.house
    let houseOnly = Boundary.tag("house:\(Fixture.house)")

    func membership(of userId: String) -> Boundary.Item {
        Boundary.Item(
            types: ["household.houseCreated", "household.memberJoined", "household.memberLeft", "household.houseClosed"],
            tags: ["user:\(userId)"])
    }

    @Test func createAndJoinAlsoReadTheActorsMemberships() {
        let create = HouseholdCommand.createHouse(houseId: house, name: "H", joinCode: Fixture.code, userId: Fixture.ann, displayName: "Ann")
        #expect(D.boundary(of: create).items == houseOnly.items + [membership(of: Fixture.ann)])
        let join = HouseholdCommand.joinHouse(houseId: house, joinCode: Fixture.code, userId: Fixture.bob, displayName: "Bob")
        #expect(D.boundary(of: join).items == houseOnly.items + [membership(of: Fixture.bob)])
    }

    @Test(arguments: [
        HouseholdCommand.leaveHouse(houseId: Fixture.house),
        .rotateJoinCode(houseId: Fixture.house, joinCode: Fixture.newCode),
        .addRoom(houseId: Fixture.house, roomId: Fixture.kitchen, name: "Kitchen"),
        .renameRoom(houseId: Fixture.house, roomId: Fixture.kitchen, name: "Galley"),
        .removeRoom(houseId: Fixture.house, roomId: Fixture.kitchen),
        .addTask(houseId: Fixture.house, roomId: Fixture.kitchen, taskId: Fixture.dishes, name: "Dishes", frequencyDays: 1, points: 5),
        .editTask(houseId: Fixture.house, taskId: Fixture.dishes, name: nil, frequencyDays: nil, points: 2),
        .removeTask(houseId: Fixture.house, taskId: Fixture.dishes),
        .completeTask(houseId: Fixture.house, taskId: Fixture.dishes),
    ])
    func otherCommandsReadOnlyTheirHouse(command: HouseholdCommand) {
        #expect(D.boundary(of: command) == houseOnly)
        #expect(command.houseId == house)
    }

    @Test func everyEventOfTheBoundaryCarriesItsTags() {
        let ann = membership(of: Fixture.ann)
        for event in [Fixture.created(Fixture.otherHouse), Fixture.joined(Fixture.ann, Fixture.otherHouse), Fixture.left(Fixture.ann, Fixture.otherHouse)] {
            #expect(ann.types.contains(event.typeName) && ann.tags.allSatisfy(event.tags.contains))
        }
        #expect(Fixture.roomAdded().tags == ["house:\(house)", "room:\(Fixture.kitchen)"])
    }

    @Test func membershipsOfOtherHousesAreTrackedWithoutTheirHouses() {
        // What the boundary of Ann joining `house` yields when she was in another one: only her
        // `user:` events of that house, no houseCreated.
        let state = D.fold([Fixture.created(), Fixture.joined(Fixture.bob, Fixture.otherHouse)])
        #expect(state.membershipsByUser == [Fixture.ann: house, Fixture.bob: Fixture.otherHouse])
        #expect(state.houses.keys.sorted() == [house])
        let moved = D.fold([Fixture.joined(Fixture.bob, Fixture.otherHouse)])
        #expect(moved.membershipsByUser == [Fixture.bob: Fixture.otherHouse])
        #expect(moved.houses.isEmpty)
        let left = D.fold([Fixture.joined(Fixture.bob, Fixture.otherHouse), Fixture.left(Fixture.bob, Fixture.otherHouse)])
        #expect(left.membershipsByUser.isEmpty)
    }

    @Test func aStaleLeaveDoesNotEndANewerMembership() {
        // Bob's membership is house; a memberLeft for another house must not clear it.
        let state = D.fold([Fixture.created(), Fixture.joined(Fixture.bob), Fixture.left(Fixture.bob, Fixture.otherHouse)])
        #expect(state.membershipsByUser[Fixture.bob] == house)
    }
}
