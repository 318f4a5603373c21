import EventSourcing
import Foundation
import Testing
@testable import Household

/// Creating, joining, leaving and closing houses; rotating the join code.
@Suite("Household membership")
struct HouseMembershipTests {
    typealias D = HouseholdDecider
    let house = Fixture.house

    func create(_ name: String = "Canal House", code: String = Fixture.code, by userId: String = Fixture.ann,
                id: String = Fixture.house) -> HouseholdCommand {
        .createHouse(houseId: id, name: name, joinCode: code, userId: userId, displayName: Fixture.displayName(userId))
    }

    func join(_ userId: String, code: String = Fixture.code, house: String = Fixture.house) -> HouseholdCommand {
        .joinHouse(houseId: house, joinCode: code, userId: userId, displayName: Fixture.displayName(userId))
    }

    @Test func creatingMakesTheCreatorTheFirstMemberWithTrimmedName() throws {
        let events = try D.given([]).when(create("  Canal House \n"), Fixture.by(Fixture.ann)).get()
        #expect(events == [Fixture.created()])
        let state = D.fold(events)
        #expect(state.openHouse(house)?.members.keys.sorted() == [Fixture.ann])
        #expect(state.membershipsByUser == [Fixture.ann: house])
    }

    @Test(arguments: ["", "   ", String(repeating: "x", count: 101)])
    func houseNamesAreOneToOneHundredCharacters(name: String) {
        let failure = D.given([]).when(create(name), Fixture.by(Fixture.ann)).failure
        #expect(failure?.code == "validation_failed")
        #expect(failure?.fieldErrors.map(\.field) == ["name"])
    }

    @Test func aHundredCharacterNameIsAllowed() throws {
        let name = String(repeating: "é", count: 100)
        #expect(try D.given([]).when(create(name), Fixture.by(Fixture.ann)).get().count == 1)
    }

    @Test(arguments: ["AbCdEfGhIjKlMnOpQrStU", "AbCdEfGhIjKlMnOpQrStU+", "AbCdEfGhIjKlMnOpQrStU ", String(repeating: "a", count: 65)])
    func joinCodesAreAtLeast22URLSafeCharacters(code: String) {
        let failure = D.given([]).when(create(code: code), Fixture.by(Fixture.ann)).failure
        #expect(failure?.fieldErrors.map(\.field) == ["joinCode"])
    }

    @Test func allFieldProblemsAreReportedTogether() {
        let failure = D.given([]).when(create("", code: "short"), Fixture.by(Fixture.ann)).failure
        #expect(failure?.fieldErrors.map(\.field) == ["name", "joinCode"])
        #expect(failure?.kind == .validation)
    }

    @Test func aUserInAHouseCanNeitherCreateNorJoinAnother() {
        let annElsewhere = [Fixture.created(Fixture.otherHouse, by: Fixture.ann)]
        #expect(D.given(annElsewhere).when(create(), Fixture.by(Fixture.ann)).failure == .alreadyInHouse)
        let bobHome = [Fixture.created(), Fixture.created(Fixture.otherHouse, by: Fixture.cat), Fixture.joined(Fixture.bob, Fixture.otherHouse)]
        #expect(D.given(bobHome).when(join(Fixture.bob), Fixture.by(Fixture.bob)).failure == .alreadyInHouse)
        #expect(D.given([Fixture.created()]).when(join(Fixture.ann), Fixture.by(Fixture.ann)).failure == .alreadyInHouse)
    }

    @Test func aUserWhoLeftTheirHouseMayCreateOrJoinAnother() throws {
        let annLeft = [Fixture.created(Fixture.otherHouse, by: Fixture.ann), Fixture.left(Fixture.ann, Fixture.otherHouse),
                       Fixture.closed(Fixture.otherHouse)]
        #expect(try D.given(annLeft).when(create(), Fixture.by(Fixture.ann)).get() == [Fixture.created()])
        let bobLeft = [Fixture.created(), Fixture.created(Fixture.otherHouse, by: Fixture.cat),
                       Fixture.joined(Fixture.bob, Fixture.otherHouse), Fixture.left(Fixture.bob, Fixture.otherHouse)]
        #expect(try D.given(bobLeft).when(join(Fixture.bob), Fixture.by(Fixture.bob)).get() == [Fixture.joined(Fixture.bob)])
    }

    @Test func houseIdsAreNeverReusedNotEvenAfterClosing() {
        let closed = [Fixture.created(), Fixture.left(Fixture.ann), Fixture.closed()]
        #expect(D.given(closed).when(create(by: Fixture.bob), Fixture.by(Fixture.bob)).failure == .idTaken)
    }

    @Test func oneCreatesAndJoinsOnlyAsOneself() {
        #expect(D.given([]).when(create(by: Fixture.bob), Fixture.by(Fixture.ann)).failure == .actorMismatch)
        #expect(D.given([Fixture.created()]).when(join(Fixture.bob), Fixture.by(Fixture.cat)).failure == .actorMismatch)
    }

    @Test func joiningWithTheCurrentCodeAddsTheMember() throws {
        let events = try D.given([Fixture.created()]).when(join(Fixture.bob), Fixture.by(Fixture.bob)).get()
        #expect(events == [Fixture.joined(Fixture.bob)])
        #expect(D.fold([Fixture.created()] + events).openHouse(house)?.members[Fixture.bob]?.displayName == "Bob")
    }

    @Test func aWrongOrRotatedCodeIsNotFound() throws {
        let wrong = D.given([Fixture.created()]).when(join(Fixture.bob, code: Fixture.newCode), Fixture.by(Fixture.bob))
        #expect(wrong.failure == .wrongJoinCode)
        #expect(wrong.failure?.kind == .notFound)
        // The code is checked first: a wrong code says nothing about the presenter's memberships.
        #expect(D.given([Fixture.created()]).when(join(Fixture.ann, code: Fixture.newCode), Fixture.by(Fixture.ann))
            .failure == .wrongJoinCode)

        let rotated = [Fixture.created(), HouseholdEvent.joinCodeRotated(.init(houseId: house, joinCode: Fixture.newCode))]
        #expect(D.given(rotated).when(join(Fixture.bob), Fixture.by(Fixture.bob)).failure == .wrongJoinCode)
        #expect(try D.given(rotated).when(join(Fixture.bob, code: Fixture.newCode), Fixture.by(Fixture.bob)).get()
            == [Fixture.joined(Fixture.bob)])
    }

    @Test func joiningAnUnknownOrClosedHouseIsHouseNotFound() {
        #expect(D.given([]).when(join(Fixture.bob), Fixture.by(Fixture.bob)).failure == .houseNotFound)
        let closed = [Fixture.created(), Fixture.left(Fixture.ann), Fixture.closed()]
        #expect(D.given(closed).when(join(Fixture.bob), Fixture.by(Fixture.bob)).failure == .houseNotFound)
    }

    @Test func leavingRemovesTheMemberAndTheLastOneOutClosesTheHouse() throws {
        let two = [Fixture.created(), Fixture.joined(Fixture.bob)]
        let bobLeaves = try D.given(two).when(.leaveHouse(houseId: house), Fixture.by(Fixture.bob)).get()
        #expect(bobLeaves == [Fixture.left(Fixture.bob)])

        let annLeaves = try D.given(two + bobLeaves).when(.leaveHouse(houseId: house), Fixture.by(Fixture.ann)).get()
        #expect(annLeaves == [Fixture.left(Fixture.ann), Fixture.closed()])
        let state = D.fold(two + bobLeaves + annLeaves)
        #expect(state.openHouse(house) == nil)
        #expect(state.houses[house]?.isClosed == true)
        #expect(state.membershipsByUser.isEmpty)
    }

    @Test func nonMembersCannotLeaveAndNothingHappensInAClosedHouse() {
        #expect(D.given([Fixture.created()]).when(.leaveHouse(houseId: house), Fixture.by(Fixture.bob)).failure == .notAMember)
        let closed = [Fixture.created(), Fixture.left(Fixture.ann), Fixture.closed()]
        #expect(D.given(closed).when(.leaveHouse(houseId: house), Fixture.by(Fixture.ann)).failure == .houseNotFound)
        #expect(D.given(closed).when(.addRoom(houseId: house, roomId: Fixture.kitchen, name: "Kitchen"), Fixture.by(Fixture.ann))
            .failure == .houseNotFound)
    }

    @Test func membersRotateTheJoinCode() throws {
        let rotate = HouseholdCommand.rotateJoinCode(houseId: house, joinCode: Fixture.newCode)
        #expect(try D.given([Fixture.created()]).when(rotate, Fixture.by(Fixture.ann)).get()
            == [.joinCodeRotated(.init(houseId: house, joinCode: Fixture.newCode))])
        #expect(D.given([Fixture.created()]).when(rotate, Fixture.by(Fixture.bob)).failure == .notAMember)
        #expect(D.given([]).when(rotate, Fixture.by(Fixture.ann)).failure == .houseNotFound)
    }

    @Test func aRotatedCodeIsValidAndNew() {
        let same = HouseholdCommand.rotateJoinCode(houseId: house, joinCode: Fixture.code)
        #expect(D.given([Fixture.created()]).when(same, Fixture.by(Fixture.ann)).failure?.fieldErrors.map(\.field) == ["joinCode"])
        let short = HouseholdCommand.rotateJoinCode(houseId: house, joinCode: "abc")
        #expect(D.given([Fixture.created()]).when(short, Fixture.by(Fixture.ann)).failure?.code == "validation_failed")
    }
}
