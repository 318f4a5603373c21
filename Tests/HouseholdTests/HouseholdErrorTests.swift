import EventSourcing
import Testing
@testable import Household

/// Stable codes and kinds, and the count limits that produce `limit_reached`.
@Suite("Household errors and limits")
struct HouseholdErrorTests {
    typealias D = HouseholdDecider
    let house = Fixture.house

    @Test func codesAndKindsAreStable() {
        let expected: [(HouseholdError, String, DomainErrorKind)] = [
            (.validationFailed([FieldError("name", "x")]), "validation_failed", .validation),
            (.houseNotFound, "house_not_found", .notFound),
            (.notAMember, "not_a_member", .forbidden),
            (.wrongJoinCode, "wrong_join_code", .notFound),
            (.alreadyInHouse, "already_in_house", .conflict),
            (.roomNotFound, "room_not_found", .notFound),
            (.taskNotFound, "task_not_found", .notFound),
            (.roomNameTaken, "room_name_taken", .conflict),
            (.idTaken, "id_taken", .conflict),
            (.actorMismatch, "actor_mismatch", .forbidden),
            (.limitReached(.rooms), "limit_reached", .conflict),
        ]
        for (error, code, kind) in expected {
            #expect(error.code == code)
            #expect(error.kind == kind)
            #expect(!error.detail.isEmpty)
            #expect(error.fieldErrors.isEmpty == (code != "validation_failed"))
        }
    }

    @Test func aFullHouseTakesNoMoreMembers() {
        let full = [Fixture.created()] + (1..<HouseholdLimits.membersPerHouseMax).map { Fixture.joined("user-\($0)") }
        let join = HouseholdCommand.joinHouse(houseId: house, joinCode: Fixture.code, userId: Fixture.bob, displayName: "Bob")
        #expect(D.given(full).when(join, Fixture.by(Fixture.bob)).failure == .limitReached(.members))
        #expect((try? D.given(full.dropLast()).when(join, Fixture.by(Fixture.bob)).get())?.count == 1)
    }

    @Test func aHouseHoldsAtMostSoManyRooms() {
        let full = [Fixture.created()] + (0..<HouseholdLimits.roomsPerHouseMax).map { Fixture.roomAdded("room-\($0)", "Room \($0)") }
        let add = HouseholdCommand.addRoom(houseId: house, roomId: Fixture.kitchen, name: "Kitchen")
        #expect(D.given(full).when(add, Fixture.by(Fixture.ann)).failure == .limitReached(.rooms))
    }

    @Test func aRoomHoldsAtMostSoManyTasksWhileOtherRoomsHaveRoom() {
        let full = [Fixture.created(), Fixture.roomAdded(), Fixture.roomAdded(Fixture.bathroom, "Bathroom")]
            + (0..<HouseholdLimits.tasksPerRoomMax).map { Fixture.taskAdded("task-\($0)") }
        let add = { (room: String) in
            HouseholdCommand.addTask(houseId: house, roomId: room, taskId: Fixture.floor, name: "Floor", frequencyDays: 7, points: 1)
        }
        #expect(D.given(full).when(add(Fixture.kitchen), Fixture.by(Fixture.ann)).failure == .limitReached(.tasks))
        #expect(D.given(full).when(add(Fixture.bathroom), Fixture.by(Fixture.ann)).failure == nil)
    }
}
