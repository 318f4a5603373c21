import EventSourcing
import Testing
@testable import Household

/// House, room and task names follow the one text policy (`TextKind.singleLine`): a control
/// character or a bidi override in a name is refused, naming the field, and nothing is stored.
@Suite("Household name text policy")
struct NameTextPolicyTests {
    typealias D = HouseholdDecider
    static let refused = FieldError("name", "must not contain control characters or line breaks")
    /// NUL, ESC, BEL, the right-to-left override, and a line break.
    static let badNames = ["Kitchen\u{0}", "\u{1B}[31mKitchen", "Kitch\u{7}en", "Kitchen\u{202E}txt.exe", "Kit\nchen"]

    @Test(arguments: badNames)
    func aHouseNameWithAControlCharacterIsRefused(name: String) {
        let create = HouseholdCommand.createHouse(houseId: Fixture.house, name: name, joinCode: Fixture.code, userId: Fixture.ann,
                                                  displayName: "Ann")
        #expect(D.given([]).when(create, Fixture.by(Fixture.ann)).failure == .validationFailed([Self.refused]))
    }

    @Test(arguments: badNames)
    func aRoomNameWithAControlCharacterIsRefused(name: String) {
        let home = [Fixture.created(), Fixture.roomAdded()]
        let add = HouseholdCommand.addRoom(houseId: Fixture.house, roomId: Fixture.bathroom, name: name)
        #expect(D.given(home).when(add, Fixture.by(Fixture.ann)).failure == .validationFailed([Self.refused]))
        let rename = HouseholdCommand.renameRoom(houseId: Fixture.house, roomId: Fixture.kitchen, name: name)
        #expect(D.given(home).when(rename, Fixture.by(Fixture.ann)).failure == .validationFailed([Self.refused]))
    }

    @Test(arguments: badNames)
    func aTaskNameWithAControlCharacterIsRefused(name: String) {
        let add = HouseholdCommand.addTask(houseId: Fixture.house, roomId: Fixture.kitchen, taskId: Fixture.floor, name: name,
                                           frequencyDays: 7, points: 3)
        #expect(D.given(Fixture.kitchenWithDishes).when(add, Fixture.by(Fixture.bob)).failure == .validationFailed([Self.refused]))
        let edit = HouseholdCommand.editTask(houseId: Fixture.house, taskId: Fixture.dishes, name: name, frequencyDays: nil, points: nil)
        #expect(D.given(Fixture.kitchenWithDishes).when(edit, Fixture.by(Fixture.bob)).failure == .validationFailed([Self.refused]))
    }

    @Test func namesOfAnyScriptAndEmojiStayWelcome() throws {
        let add = HouseholdCommand.addRoom(houseId: Fixture.house, roomId: Fixture.bathroom, name: "Küche 👨‍👩‍👧 台所")
        #expect(try D.given([Fixture.created()]).when(add, Fixture.by(Fixture.ann)).get()
            == [Fixture.roomAdded(Fixture.bathroom, "Küche 👨‍👩‍👧 台所")])
    }
}
