import EventSourcing
import Foundation
import Workplace

/// The workplace's events as its read models take them: a review as its ids, every other event
/// whole with its personal fields as the log stores them (sealed), not opened.
///
/// Why: reviews are most of a workplace log and its largest events, and on a server's log a
/// review holds 3–8 sealed fields (its reviewer's name, every text answer, the remark). The read
/// models store where a review is and `WorkplaceQueries` reads it from the log when asked, so a
/// build decodes three ids of a review and opens nothing of it (docs/benchmarks.md, issue 12).
/// Members' and requests' names and employee numbers and news items' authors, titles and texts
/// are stored sealed and opened by `WorkplaceQueries` (ADR 0009), so a build opens nothing.
public enum WorkplaceProjectionInput: DecodableDomainEvent, Equatable {
    /// `workplace.reviewSubmitted`, as its ids.
    case reviewSubmitted(ReviewIds)
    /// Any other workplace event, its personal fields as stored: open them with `WorkplaceQueries`.
    case event(WorkplaceEvent)

    /// The ids of a submitted review: what the read models key it by.
    public struct ReviewIds: NodeDecodable, Sendable, Equatable {
        public var organisationId: String
        public var reviewId: String
        public var employeeId: String

        /// Only the top level is read: the answers, most of a review's bytes, are checked by
        /// the scan but get no nodes.
        public static var readsNestedContainers: Bool { false }

        public init(nodes object: NodeObject) throws {
            organisationId = try object.value("organisationId")
            reviewId = try object.value("reviewId")
            employeeId = try object.value("employeeId")
        }
    }

    public static var domain: String { WorkplaceEvent.domain }

    /// `keyring` is not used: nothing is opened.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> WorkplaceProjectionInput? {
        if typeName == WorkplaceEvent.ReviewSubmitted.typeName, schemaVersion == WorkplaceEvent.ReviewSubmitted.schemaVersion {
            return .reviewSubmitted(try EventJSON.decode(ReviewIds.self, from: data))
        }
        return try WorkplaceEvent.catalogue.decodeAsStored(typeName: typeName, schemaVersion: schemaVersion, data: data).map(Self.event)
    }
}
