/// What a neighbour asks. Ids and the actor's display name and neighbourhood (the normalised
/// postcode of their profile now) are generated or looked up by the caller, so deciding stays
/// pure; the time arrives in `CommandMetadata`.
public enum NeighbourhoodCommand: Sendable, Equatable {
    /// Posts a report in the actor's neighbourhood; the author follows it from the start.
    case postReport(PostReport)
    /// The author deletes their report.
    case deleteReport(reportId: String, neighbourhood: String?)
    /// Replies to a report the actor may see.
    case postReply(reportId: String, replyId: String, message: String, displayName: String, neighbourhood: String?)
    /// Follows a report; following one already followed changes nothing.
    case followReport(reportId: String, neighbourhood: String?)
    /// Stops following a report; unfollowing one not followed changes nothing.
    case unfollowReport(reportId: String, neighbourhood: String?)

    /// The report every command is about.
    public var reportId: String {
        switch self {
        case .postReport(let post): post.reportId
        case .deleteReport(let reportId, _), .postReply(let reportId, _, _, _, _),
             .followReport(let reportId, _), .unfollowReport(let reportId, _):
            reportId
        }
    }

    /// The fields of a new report as the client sent them; the decider trims and checks them.
    public struct PostReport: Sendable, Equatable {
        /// The new report's id.
        public var reportId: String
        /// The author's neighbourhood now; nil when their profile has no postcode.
        public var neighbourhood: String?
        /// The author's display name now, shown with the report.
        public var displayName: String
        /// 1–120 characters after trimming.
        public var title: String
        /// 1–5000 characters after trimming.
        public var description: String
        /// One of `ReportCategory`'s raw values; a string so that a wrong one is a field error.
        public var category: String
        /// Degrees, −90…90.
        public var latitude: Double
        /// Degrees, −180…180.
        public var longitude: Double

        /// A report as posted.
        public init(
            reportId: String, neighbourhood: String?, displayName: String, title: String, description: String,
            category: String, latitude: Double, longitude: Double
        ) {
            self.reportId = reportId
            self.neighbourhood = neighbourhood
            self.displayName = displayName
            self.title = title
            self.description = description
            self.category = category
            self.latitude = latitude
            self.longitude = longitude
        }
    }
}
