import EventSourcing
import Foundation

extension HouseholdEvent {
    /// The payload as JSON (sorted keys, RFC 3339 dates).
    public func encodeData() throws -> Data {
        switch self {
        case .houseCreated(let p): try EventJSON.encode(p)
        case .memberJoined(let p): try EventJSON.encode(p)
        case .memberLeft(let p): try EventJSON.encode(p)
        case .houseClosed(let p): try EventJSON.encode(p)
        case .joinCodeRotated(let p): try EventJSON.encode(p)
        case .roomAdded(let p): try EventJSON.encode(p)
        case .roomRenamed(let p): try EventJSON.encode(p)
        case .roomRemoved(let p): try EventJSON.encode(p)
        case .taskAdded(let p): try EventJSON.encode(p)
        case .taskEdited(let p): try EventJSON.encode(p)
        case .taskRemoved(let p): try EventJSON.encode(p)
        case .taskCompleted(let p): try EventJSON.encode(p)
        }
    }

    /// The event stored as `typeName`, or nil for another domain's type. Every type is at schema
    /// version 1 so far; a version 2 would be upcast here, keyed on `schemaVersion`.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data) throws -> HouseholdEvent? {
        guard let type = EventType(rawValue: typeName) else { return nil }
        switch type {
        case .houseCreated: return .houseCreated(try EventJSON.decode(HouseCreated.self, from: data))
        case .memberJoined: return .memberJoined(try EventJSON.decode(MemberJoined.self, from: data))
        case .memberLeft: return .memberLeft(try EventJSON.decode(MemberLeft.self, from: data))
        case .houseClosed: return .houseClosed(try EventJSON.decode(HouseClosed.self, from: data))
        case .joinCodeRotated: return .joinCodeRotated(try EventJSON.decode(JoinCodeRotated.self, from: data))
        case .roomAdded: return .roomAdded(try EventJSON.decode(RoomAdded.self, from: data))
        case .roomRenamed: return .roomRenamed(try EventJSON.decode(RoomRenamed.self, from: data))
        case .roomRemoved: return .roomRemoved(try EventJSON.decode(RoomRemoved.self, from: data))
        case .taskAdded: return .taskAdded(try EventJSON.decode(TaskAdded.self, from: data))
        case .taskEdited: return .taskEdited(try EventJSON.decode(TaskEdited.self, from: data))
        case .taskRemoved: return .taskRemoved(try EventJSON.decode(TaskRemoved.self, from: data))
        case .taskCompleted: return .taskCompleted(try EventJSON.decode(TaskCompleted.self, from: data))
        }
    }
}
