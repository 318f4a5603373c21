import EventSourcing
import Foundation

extension NeighbourhoodEvent {
    /// The payload as JSON (sorted keys, RFC 3339 dates).
    public func encodeData() throws -> Data {
        switch self {
        case .reportPosted(let p): try EventJSON.encode(p)
        case .reportDeleted(let p): try EventJSON.encode(p)
        case .replyPosted(let p): try EventJSON.encode(p)
        case .reportFollowed(let p): try EventJSON.encode(p)
        case .reportUnfollowed(let p): try EventJSON.encode(p)
        }
    }

    /// The event stored as `typeName`, or nil for another domain's type. Every type is at schema
    /// version 1 so far; a version 2 would be upcast here, keyed on `schemaVersion`.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data) throws -> NeighbourhoodEvent? {
        guard let type = EventType(rawValue: typeName) else { return nil }
        switch type {
        case .reportPosted: return .reportPosted(try EventJSON.decode(ReportPosted.self, from: data))
        case .reportDeleted: return .reportDeleted(try EventJSON.decode(ReportDeleted.self, from: data))
        case .replyPosted: return .replyPosted(try EventJSON.decode(ReplyPosted.self, from: data))
        case .reportFollowed: return .reportFollowed(try EventJSON.decode(ReportFollowed.self, from: data))
        case .reportUnfollowed: return .reportUnfollowed(try EventJSON.decode(ReportUnfollowed.self, from: data))
        }
    }
}
