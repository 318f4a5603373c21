import EventSourcing
import Foundation

extension NeighbourhoodEvent {
    /// `neighbourhood.reportPosted`: everything the read models show of a report, so that no
    /// list needs a join, and the author's name as it was when posting.
    public struct ReportPosted: NeighbourhoodPayload {
        public static let typeName = "neighbourhood.reportPosted"
        public var event: NeighbourhoodEvent { .reportPosted(self) }
        public var actorId: String { authorId }

        /// The new report.
        public var reportId: String
        /// The author's normalised postcode when posting; the report stays in it.
        public var neighbourhood: String
        /// The author.
        public var authorId: String
        /// The author's display name when posting.
        public var authorDisplayName: String
        /// Trimmed, 1–120 characters.
        public var title: String
        /// Trimmed, 1–5000 characters.
        public var description: String
        /// The kind of report.
        public var category: ReportCategory
        /// Degrees, −90…90.
        public var latitude: Double
        /// Degrees, −180…180.
        public var longitude: Double
        /// When it was posted: the command's metadata time.
        public var postedAt: Date
    }

    /// `neighbourhood.reportDeleted`.
    public struct ReportDeleted: NeighbourhoodPayload {
        public static let typeName = "neighbourhood.reportDeleted"
        public var event: NeighbourhoodEvent { .reportDeleted(self) }
        public var actorId: String { authorId }

        /// The deleted report.
        public var reportId: String
        /// Its neighbourhood.
        public var neighbourhood: String
        /// Its author, who deleted it.
        public var authorId: String
    }
}
