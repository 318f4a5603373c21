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

    /// The case's payload.
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

    /// The report the event belongs to.
    public var reportId: String {
        switch self {
        case .reportPosted(let p): p.reportId
        case .reportDeleted(let p): p.reportId
        case .replyPosted(let p): p.reportId
        case .reportFollowed(let p): p.reportId
        case .reportUnfollowed(let p): p.reportId
        }
    }

    /// The neighbourhood the report was posted in; it stays there when its author moves.
    public var neighbourhood: String {
        switch self {
        case .reportPosted(let p): p.neighbourhood
        case .reportDeleted(let p): p.neighbourhood
        case .replyPosted(let p): p.neighbourhood
        case .reportFollowed(let p): p.neighbourhood
        case .reportUnfollowed(let p): p.neighbourhood
        }
    }

    /// The user who acted: the author, the replier, the (un)follower.
    public var userId: String {
        switch self {
        case .reportPosted(let p): p.authorId
        case .reportDeleted(let p): p.authorId
        case .replyPosted(let p): p.authorId
        case .reportFollowed(let p): p.userId
        case .reportUnfollowed(let p): p.userId
        }
    }

    /// `report-<reportId>`.
    public var streamID: String { Self.streamID(report: reportId) }

    /// `report:<id>`, `neighbourhood:<postcode>`, `user:<id>`.
    public var tags: [String] {
        [Self.reportTag(reportId), Self.neighbourhoodTag(neighbourhood), Self.userTag(userId)]
    }
}
