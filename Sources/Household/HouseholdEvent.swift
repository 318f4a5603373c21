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

    /// The case's payload: the one switch over the cases, as only a macro could derive it (swift-syntax's build breaks the 10-minute first build).
    public var payload: any HouseholdPayload {
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

    /// The case's payload, for the type name, the version and the JSON.
    public var eventPayload: any EventPayload<HouseholdEvent> { payload.asEventPayload }

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
    public var houseId: String { payload.houseId }
}

/// What every household payload says: its house and, for the tags, the member whose membership
/// it changes and the room and task it is about.
public protocol HouseholdPayload: EventPayload<HouseholdEvent> {
    /// The house.
    var houseId: String { get }
    /// The user whose membership the event changes (`user:` tag), for the membership events.
    var memberUserId: String? { get }
    /// The room and the task the event is about (`room:`, `task:`), for the room and task events.
    var entityTags: [String] { get }
}

extension HouseholdPayload {
    /// Most events change no membership.
    public var memberUserId: String? { nil }
    /// Events about the house as a whole name nothing inside it.
    public var entityTags: [String] { [] }
    /// `house-<houseId>`.
    public var streamID: String { HouseholdEvent.streamID(house: houseId) }
    /// `house:<houseId>`, the member's `user:<userId>`, the room's and the task's.
    public var tags: [String] { [HouseholdEvent.houseTag(houseId)] + (memberUserId.map { [HouseholdEvent.userTag($0)] } ?? []) + entityTags }
}
