import EventSourcing
import Foundation

extension NeighbourhoodEvent {
    /// `neighbourhood.replyPosted`: carries the replier's name so that threads and notifications
    /// need no join.
    public struct ReplyPosted: NeighbourhoodPayload {
        public static let typeName = "neighbourhood.replyPosted"
        public var event: NeighbourhoodEvent { .replyPosted(self) }
        public var actorId: String { authorId }

        /// The report replied to.
        public var reportId: String
        /// The report's neighbourhood.
        public var neighbourhood: String
        /// The new reply.
        public var replyId: String
        /// Who replied.
        public var authorId: String
        /// Their display name when replying.
        public var authorDisplayName: String
        /// Trimmed, 1–2000 characters.
        public var message: String
        /// When: the command's metadata time.
        public var postedAt: Date
    }

    /// `neighbourhood.reportFollowed`.
    public struct ReportFollowed: NeighbourhoodPayload {
        public static let typeName = "neighbourhood.reportFollowed"
        public var event: NeighbourhoodEvent { .reportFollowed(self) }
        public var actorId: String { userId }

        /// The followed report.
        public var reportId: String
        /// The report's neighbourhood.
        public var neighbourhood: String
        /// The new follower.
        public var userId: String
    }

    /// `neighbourhood.reportUnfollowed`.
    public struct ReportUnfollowed: NeighbourhoodPayload {
        public static let typeName = "neighbourhood.reportUnfollowed"
        public var event: NeighbourhoodEvent { .reportUnfollowed(self) }
        public var actorId: String { userId }

        /// The report no longer followed.
        public var reportId: String
        /// The report's neighbourhood.
        public var neighbourhood: String
        /// The former follower.
        public var userId: String
    }
}
