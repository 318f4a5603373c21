import EventSourcing
import Foundation
import Testing
@testable import Household

/// The storage format: every event survives the JSON round trip, and names, streams and tags
/// follow the project's conventions.
@Suite("Household event JSON")
struct HouseholdEventJSONTests {
    static let house = Fixture.house

    /// One event of every type.
    static let everyEvent: [HouseholdEvent] = [
        Fixture.created(),
        Fixture.joined(Fixture.bob),
        Fixture.left(Fixture.bob),
        Fixture.closed(),
        .joinCodeRotated(.init(houseId: house, joinCode: Fixture.newCode)),
        Fixture.roomAdded(),
        .roomRenamed(.init(houseId: house, roomId: Fixture.kitchen, name: "Galley")),
        .roomRemoved(.init(houseId: house, roomId: Fixture.kitchen)),
        Fixture.taskAdded(),
        .taskEdited(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes, name: "Wash up", frequencyDays: 2, points: 3)),
        .taskRemoved(.init(houseId: house, roomId: Fixture.kitchen, taskId: Fixture.dishes)),
        Fixture.completed(by: Fixture.ann),
    ]

    @Test func theSampleCoversEveryType() {
        #expect(Set(Self.everyEvent.map(\.typeName)) == Set(HouseholdEvent.typeNames))
    }

    @Test(arguments: everyEvent)
    func roundTrips(event: HouseholdEvent) throws {
        let data = try event.encodeData()
        // Through the fast decoder alone: a payload that fell back to Foundation would be slow.
        let decoded = try EventJSON.$fastPathOnly.withValue(true) {
            try HouseholdEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: data)
        }
        #expect(decoded == event)
        #expect(event.schemaVersion == 1)
    }

    @Test(arguments: everyEvent)
    func namesStreamsAndTagsFollowTheConventions(event: HouseholdEvent) {
        #expect(event.typeName == "household." + String(describing: event).prefix { $0 != "(" })
        #expect(event.streamID == "house-\(Self.house)")
        #expect(event.tags.first == "house:\(Self.house)")
        // Then the user of a membership event, the room of a room event, the room and the task
        // of a task event: every id an audit by entity looks for.
        let rest: [String] = switch event.typeName {
        case "household.houseCreated", "household.memberJoined", "household.memberLeft": ["user:\(event.payload.memberUserId ?? "?")"]
        case let type where type.hasPrefix("household.room"): ["room:\(Fixture.kitchen)"]
        case let type where type.hasPrefix("household.task"): ["room:\(Fixture.kitchen)", "task:\(Fixture.dishes)"]
        default: []
        }
        #expect(Array(event.tags.dropFirst()) == rest, "\(event.typeName)")
    }

    @Test func unknownTypesDecodeToNil() throws {
        let data = try Fixture.created().encodeData()
        #expect(try HouseholdEvent.decode(typeName: "account.registered", schemaVersion: 1, data: data) == nil)
        #expect(try HouseholdEvent.decode(typeName: "household.houseRenovated", schemaVersion: 1, data: data) == nil)
    }

    @Test func malformedDataOfAKnownTypeThrows() {
        #expect(throws: (any Error).self) {
            try HouseholdEvent.decode(typeName: "household.memberJoined", schemaVersion: 1, data: Data("{}".utf8))
        }
    }

    /// Completions are read straight from the JSON nodes (`NodeDecodable`): the same values as
    /// the Codable path for random variants and every one-change mutation, the same refusals.
    @Test func completionsReadFromTheNodesAgreeWithTheCodablePath() throws {
        var random = SystemRandomNumberGenerator()
        guard case .taskCompleted(let completed) = Fixture.completed(by: Fixture.ann) else { Issue.record("not a completion"); return }
        let problems = try NodeDecodingAgreement.disagreements(completed, rounds: 100, using: &random)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test func taskCompletedIsStoredAsReadModelsExpect() throws {
        let json = String(decoding: try Fixture.completed(by: Fixture.ann).encodeData(), as: UTF8.self)
        #expect(json == #"{"completedAt":"2026-09-21T14:13:20.250Z","displayName":"Ann","houseId":"\#(Self.house)","#
            + #""points":5,"roomId":"\#(Fixture.kitchen)","roomName":"Kitchen","taskId":"\#(Fixture.dishes)","#
            + #""taskName":"Dishes","userId":"\#(Fixture.ann)"}"#)
    }
}
