import EventSourcing
import Testing
@testable import Household

/// Adding, renaming and removing rooms.
@Suite("Household rooms")
struct RoomTests {
    typealias D = HouseholdDecider
    let house = Fixture.house
    let home = [Fixture.created(), Fixture.joined(Fixture.bob)]

    @Test func membersAddRoomsWithTrimmedNames() throws {
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.kitchen, name: " Kitchen ")
        #expect(try D.given(home).when(add, Fixture.by(Fixture.bob)).get() == [Fixture.roomAdded()])
    }

    @Test(arguments: ["", " \t ", String(repeating: "r", count: 101)])
    func roomNamesAreOneToOneHundredCharacters(name: String) {
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.kitchen, name: name)
        #expect(D.given(home).when(add, Fixture.by(Fixture.ann)).failure == .validationFailed([
            FieldError("name", "must be 1 to 100 characters"),
        ]))
    }

    @Test func roomNamesAreUniqueIgnoringCase() {
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.bathroom, name: "KITCHEN")
        let failure = D.given(home + [Fixture.roomAdded()]).when(add, Fixture.by(Fixture.ann)).failure
        #expect(failure == .roomNameTaken)
        #expect(failure?.kind == .conflict)
    }

    @Test func aRemovedRoomsNameIsFreeAgain() throws {
        let removed = home + [Fixture.roomAdded(), .roomRemoved(.init(houseId: house, roomId: Fixture.kitchen))]
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.bathroom, name: "kitchen")
        #expect(try D.given(removed).when(add, Fixture.by(Fixture.ann)).get().count == 1)
    }

    @Test func roomIdsAreNotReused() {
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.kitchen, name: "Hall")
        #expect(D.given(home + [Fixture.roomAdded()]).when(add, Fixture.by(Fixture.ann)).failure == .idTaken)
    }

    @Test func nonMembersCannotTouchRooms() {
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.kitchen, name: "Kitchen")
        let failure = D.given(home).when(add, Fixture.by(Fixture.cat)).failure
        #expect(failure == .notAMember)
        #expect(failure?.kind == .forbidden)
        let rename = HouseholdCommand.renameRoom(houseId: house, roomId: Fixture.kitchen, name: "Hall")
        #expect(D.given(home + [Fixture.roomAdded()]).when(rename, Fixture.by(Fixture.cat)).failure == .notAMember)
        let remove = HouseholdCommand.removeRoom(houseId: house, roomId: Fixture.kitchen)
        #expect(D.given(home + [Fixture.roomAdded()]).when(remove, Fixture.by(Fixture.cat)).failure == .notAMember)
    }

    @Test func formerMembersAreNoLongerMembers() {
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.kitchen, name: "Kitchen")
        #expect(D.given(home + [Fixture.left(Fixture.bob)]).when(add, Fixture.by(Fixture.bob)).failure == .notAMember)
    }

    @Test func renamingChangesTheNameAndMayChangeOnlyItsCase() throws {
        let given = D.given(home + [Fixture.roomAdded(), Fixture.roomAdded(Fixture.bathroom, "Bathroom")])
        let rename = { (name: String) in HouseholdCommand.renameRoom(houseId: house, roomId: Fixture.kitchen, name: name) }
        #expect(try given.when(rename("Galley"), Fixture.by(Fixture.bob)).get()
            == [.roomRenamed(.init(houseId: house, roomId: Fixture.kitchen, name: "Galley"))])
        #expect(try given.when(rename("KITCHEN"), Fixture.by(Fixture.bob)).get()
            == [.roomRenamed(.init(houseId: house, roomId: Fixture.kitchen, name: "KITCHEN"))])
        #expect(try given.when(rename(" Kitchen "), Fixture.by(Fixture.bob)).get().isEmpty, "same name: nothing to do")
        #expect(given.when(rename("bathroom"), Fixture.by(Fixture.bob)).failure == .roomNameTaken)
        #expect(given.when(rename(""), Fixture.by(Fixture.bob)).failure?.fieldErrors.map(\.field) == ["name"])
    }

    @Test func renamingOrRemovingAnUnknownRoomIsRoomNotFound() {
        let rename = HouseholdCommand.renameRoom(houseId: house, roomId: Fixture.bathroom, name: "Hall")
        #expect(D.given(home).when(rename, Fixture.by(Fixture.ann)).failure == .roomNotFound)
        let remove = HouseholdCommand.removeRoom(houseId: house, roomId: Fixture.bathroom)
        #expect(D.given(home).when(remove, Fixture.by(Fixture.ann)).failure == .roomNotFound)
    }

    @Test func removingARoomRemovesItsTasksFirstAndOnlyItsTasks() throws {
        let given = home + [
            Fixture.roomAdded(), Fixture.roomAdded(Fixture.bathroom, "Bathroom"),
            Fixture.taskAdded(Fixture.sink), Fixture.taskAdded(Fixture.dishes), Fixture.taskAdded(Fixture.floor, room: Fixture.bathroom),
        ]
        let events = try D.given(given).when(.removeRoom(houseId: house, roomId: Fixture.kitchen), Fixture.by(Fixture.ann)).get()
        #expect(events == [
            .taskRemoved(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes)),
            .taskRemoved(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.sink)),
            .roomRemoved(.init(houseId: house, roomId: Fixture.kitchen)),
        ])
        let after = D.fold(given + events).openHouse(house)
        #expect(after?.rooms.keys.sorted() == [Fixture.bathroom])
        #expect(after?.tasks.keys.sorted() == [Fixture.floor])
    }

    @Test func removingAnEmptyRoomIsOneEvent() throws {
        let events = try D.given(home + [Fixture.roomAdded()])
            .when(.removeRoom(houseId: house, roomId: Fixture.kitchen), Fixture.by(Fixture.ann)).get()
        #expect(events == [.roomRemoved(.init(houseId: house, roomId: Fixture.kitchen))])
    }
}
