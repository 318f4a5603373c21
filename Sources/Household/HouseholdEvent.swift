import EventSourcing
import Foundation

/// What happened in a house: the storage format of the household domain. Payloads are written
/// to the log as JSON and never rewritten, so change them only by adding a schema version.
///
/// Every event is in the stream `house-<houseId>` and tagged `house:<houseId>`; the membership
/// events (`houseCreated` for the creator, `memberJoined`, `memberLeft`) are also tagged
/// `user:<userId>`, which is how "a user belongs to at most one house" is kept across houses.
public enum HouseholdEvent: CataloguedEvent {
    /// Every stored type name starts `household.`.
    public static let domain = "household"

    /// A house was founded; its creator is its first member.
    case houseCreated(HouseCreated)
    /// A user joined with the current join code.
    case memberJoined(MemberJoined)
    /// A member left.
    case memberLeft(MemberLeft)
    /// The last member left; the house is gone for good.
    case houseClosed(HouseClosed)
    /// The join code was replaced; the old one no longer works.
    case joinCodeRotated(JoinCodeRotated)
    /// A room was added.
    case roomAdded(RoomAdded)
    /// A room was renamed.
    case roomRenamed(RoomRenamed)
    /// A room was removed; its tasks were removed by `taskRemoved` events just before.
    case roomRemoved(RoomRemoved)
    /// A task was added to a room.
    case taskAdded(TaskAdded)
    /// A task's name, frequency or points changed.
    case taskEdited(TaskEdited)
    /// A task was removed.
    case taskRemoved(TaskRemoved)
    /// A member did a task and earned its points.
    case taskCompleted(TaskCompleted)

    /// Every payload type, for decoding by stored type name.
    public static let catalogue = EventPayloadCatalogue<HouseholdEvent>([
        HouseCreated.self, MemberJoined.self, MemberLeft.self, HouseClosed.self, JoinCodeRotated.self, RoomAdded.self,
        RoomRenamed.self, RoomRemoved.self, TaskAdded.self, TaskEdited.self, TaskRemoved.self, TaskCompleted.self,
    ])

    /// The case's payload.
    public var eventPayload: any EventPayload<HouseholdEvent> {
        switch self {
        case .houseCreated(let p): p
        case .memberJoined(let p): p
        case .memberLeft(let p): p
        case .houseClosed(let p): p
        case .joinCodeRotated(let p): p
        case .roomAdded(let p): p
        case .roomRenamed(let p): p
        case .roomRemoved(let p): p
        case .taskAdded(let p): p
        case .taskEdited(let p): p
        case .taskRemoved(let p): p
        case .taskCompleted(let p): p
        }
    }

    /// The stream of a house, `house-<houseId>`.
    public static func streamID(house houseId: String) -> String { "house-\(houseId)" }
    /// The tag every event of a house carries, `house:<houseId>`.
    public static func houseTag(_ houseId: String) -> String { "house:\(houseId)" }
    /// The tag a room or task event carries for its room, `room:<roomId>`.
    public static func roomTag(_ roomId: String) -> String { "room:\(roomId)" }
    /// The tag a task event carries for its task, `task:<taskId>`.
    public static func taskTag(_ taskId: String) -> String { "task:\(taskId)" }
    /// The tag a membership event carries for its user, `user:<userId>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }

    /// The house the event belongs to.
    public var houseId: String {
        switch self {
        case .houseCreated(let p): p.houseId
        case .memberJoined(let p): p.houseId
        case .memberLeft(let p): p.houseId
        case .houseClosed(let p): p.houseId
        case .joinCodeRotated(let p): p.houseId
        case .roomAdded(let p): p.houseId
        case .roomRenamed(let p): p.houseId
        case .roomRemoved(let p): p.houseId
        case .taskAdded(let p): p.houseId
        case .taskEdited(let p): p.houseId
        case .taskRemoved(let p): p.houseId
        case .taskCompleted(let p): p.houseId
        }
    }

    /// The user whose membership the event changes, for the membership events only.
    public var memberUserId: String? {
        switch self {
        case .houseCreated(let p): p.creatorId
        case .memberJoined(let p): p.userId
        case .memberLeft(let p): p.userId
        default: nil
        }
    }

    /// `house-<houseId>`.
    public var streamID: String { Self.streamID(house: houseId) }

    /// The room and the task the event concerns, for the room and task events only.
    public var roomAndTask: (roomId: String, taskId: String?)? {
        switch self {
        case .roomAdded(let p): (p.roomId, nil)
        case .roomRenamed(let p): (p.roomId, nil)
        case .roomRemoved(let p): (p.roomId, nil)
        case .taskAdded(let p): (p.roomId, p.taskId)
        case .taskEdited(let p): (p.roomId, p.taskId)
        case .taskRemoved(let p): (p.roomId, p.taskId)
        case .taskCompleted(let p): (p.roomId, p.taskId)
        default: nil
        }
    }

    /// `house:<houseId>`, plus `user:<userId>` on membership events and `room:<roomId>` (and
    /// `task:<taskId>`) on room and task events: every id an operator may audit by (SPEC §3,
    /// "audit by entity") is a tag, so the tag index finds its events.
    public var tags: [String] {
        var tags = [Self.houseTag(houseId)]
        if let userId = memberUserId { tags.append(Self.userTag(userId)) }
        if let (roomId, taskId) = roomAndTask {
            tags.append(Self.roomTag(roomId))
            if let taskId { tags.append(Self.taskTag(taskId)) }
        }
        return tags
    }
}
