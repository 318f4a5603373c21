import EventSourcing
import Foundation

/// What happened to a neighbourhood's reports: the storage format of the neighbourhood domain.
/// Payloads are written to the log as JSON and never rewritten, so change them only by adding
/// a schema version.
///
/// Every event is in the stream `report-<reportId>` and tagged `report:<reportId>` (the
/// boundary of every command), `neighbourhood:<postcode>` (the report's neighbourhood, for reads
/// and live topics) and `user:<userId>` (who acted). Household's and accounts' boundaries read
/// `user:` tags only together with their own event types, so sharing the tag is safe.
public enum NeighbourhoodEvent: CataloguedEvent {
    /// Every stored type name starts `neighbourhood.`.
    public static let domain = "neighbourhood"

    /// A report was posted in its author's neighbourhood.
    case reportPosted(ReportPosted)
    /// Its author deleted a report; nothing happens to it after.
    case reportDeleted(ReportDeleted)
    /// Someone replied to a report.
    case replyPosted(ReplyPosted)
    /// Someone started following a report (its author does when posting).
    case reportFollowed(ReportFollowed)
    /// Someone stopped following a report.
    case reportUnfollowed(ReportUnfollowed)

    /// Every payload type, for decoding by stored type name.
    public static let catalogue = EventPayloadCatalogue<NeighbourhoodEvent>([
        ReportPosted.self, ReportDeleted.self, ReplyPosted.self, ReportFollowed.self, ReportUnfollowed.self,
    ])

    /// The case's payload: the one switch over the cases, as only a macro could derive it (swift-syntax's build breaks the 10-minute first build).
    public var eventPayload: any EventPayload<NeighbourhoodEvent> {
        switch self {
        case .reportPosted(let p): p
        case .reportDeleted(let p): p
        case .replyPosted(let p): p
        case .reportFollowed(let p): p
        case .reportUnfollowed(let p): p
        }
    }

    /// The stream of a report, `report-<reportId>`.
    public static func streamID(report reportId: String) -> String { "report-\(reportId)" }
    /// The tag every event of a report carries, `report:<reportId>`.
    public static func reportTag(_ reportId: String) -> String { "report:\(reportId)" }
    /// The tag of a neighbourhood's events, `neighbourhood:<postcode>`.
    public static func neighbourhoodTag(_ neighbourhood: String) -> String { "neighbourhood:\(neighbourhood)" }
    /// The tag of the acting user, `user:<userId>`.
    public static func userTag(_ userId: String) -> String { "user:\(userId)" }
}

/// What every neighbourhood payload says: its report, the report's neighbourhood and who acted.
public protocol NeighbourhoodPayload: EventPayload<NeighbourhoodEvent> {
    /// The report the event belongs to.
    var reportId: String { get }
    /// The neighbourhood the report was posted in; it stays there when its author moves.
    var neighbourhood: String { get }
    /// The user who acted: the author, the replier, the (un)follower.
    var actorId: String { get }
}

extension NeighbourhoodPayload {
    /// `report-<reportId>`.
    public var streamID: String { NeighbourhoodEvent.streamID(report: reportId) }
    /// `report:<id>`, `neighbourhood:<postcode>`, `user:<id>`.
    public var tags: [String] {
        [NeighbourhoodEvent.reportTag(reportId), NeighbourhoodEvent.neighbourhoodTag(neighbourhood), NeighbourhoodEvent.userTag(actorId)]
    }
}
