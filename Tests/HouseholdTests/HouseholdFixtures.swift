import EventSourcing
import Foundation
@testable import Household

/// Ids, codes and common events shared by the household tests. Ids look like the UUIDs the API
/// generates; the decider itself treats them as opaque strings.
enum Fixture {
    static let house = "0193c0de-0000-7000-8000-00000000000a"
    static let otherHouse = "0193c0de-0000-7000-8000-00000000000b"
    static let ann = "0193c0de-0000-7000-8000-0000000000a1"
    static let bob = "0193c0de-0000-7000-8000-0000000000b2"
    static let cat = "0193c0de-0000-7000-8000-0000000000c3"
    static let kitchen = "0193c0de-0000-7000-8000-0000000000e1"
    static let bathroom = "0193c0de-0000-7000-8000-0000000000e2"
    static let dishes = "0193c0de-0000-7000-8000-0000000000f1"
    static let floor = "0193c0de-0000-7000-8000-0000000000f2"
    static let sink = "0193c0de-0000-7000-8000-0000000000f3"
    /// 22 base64url characters: the shortest code allowed.
    static let code = "AbCdEfGhIjKlMnOpQrSt-_"
    static let newCode = "ZyXwVuTsRqPoNmLkJiHgFe"
    /// Millisecond-exact, so it survives the JSON round trip unchanged.
    static let now = Date(timeIntervalSince1970: 1_790_000_000.25)

    /// The metadata of a command by `actor` at `now`.
    static func by(_ actor: String, at time: Date = now) -> CommandMetadata {
        CommandMetadata(actor: actor, now: time, commandID: UUID())
    }

    static func created(_ houseId: String = house, by userId: String = ann, code: String = code) -> HouseholdEvent {
        .houseCreated(.init(houseId: houseId, name: "Canal House", joinCode: code, creatorId: userId,
                            creatorDisplayName: displayName(userId)))
    }

    static func joined(_ userId: String, _ houseId: String = house) -> HouseholdEvent {
        .memberJoined(.init(houseId: houseId, userId: userId, displayName: displayName(userId)))
    }

    static func left(_ userId: String, _ houseId: String = house) -> HouseholdEvent {
        .memberLeft(.init(houseId: houseId, userId: userId))
    }

    static func closed(_ houseId: String = house) -> HouseholdEvent {
        .houseClosed(.init(houseId: houseId))
    }

    static func roomAdded(_ roomId: String = kitchen, _ name: String = "Kitchen") -> HouseholdEvent {
        .roomAdded(.init(houseId: house, roomId: roomId, name: name))
    }

    static func taskAdded(_ taskId: String = dishes, room: String = kitchen, name: String = "Dishes",
                          frequencyDays: Int = 1, points: Int = 5) -> HouseholdEvent {
        .taskAdded(.init(houseId: house, roomId: room, taskId: taskId, name: name,
                         frequencyDays: frequencyDays, points: points))
    }

    static func completed(_ taskId: String = dishes, by userId: String, points: Int = 5,
                          taskName: String = "Dishes", at time: Date = now) -> HouseholdEvent {
        .taskCompleted(.init(houseId: house, taskId: taskId, taskName: taskName, roomId: kitchen, roomName: "Kitchen",
                             userId: userId, displayName: displayName(userId), points: points, completedAt: time))
    }

    /// Ann founded the house, Bob joined, and the kitchen has the dishes (daily, 5 points).
    static let kitchenWithDishes: [HouseholdEvent] = [created(), joined(bob), roomAdded(), taskAdded()]

    static func displayName(_ userId: String) -> String {
        switch userId {
        case ann: "Ann"
        case bob: "Bob"
        case cat: "Cat"
        default: "Someone"
        }
    }
}
