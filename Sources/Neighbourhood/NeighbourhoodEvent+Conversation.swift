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

        /// `authorId` replied `message` to `reportId`.
        public init(
            reportId: String, neighbourhood: String, replyId: String, authorId: String, authorDisplayName: String,
            message: String, postedAt: Date
        ) {
            self.reportId = reportId
            self.neighbourhood = neighbourhood
            self.replyId = replyId
            self.authorId = authorId
            self.authorDisplayName = authorDisplayName
            self.message = message
            self.postedAt = postedAt
        }
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

        /// `userId` follows `reportId`.
        public init(reportId: String, neighbourhood: String, userId: String) {
            self.reportId = reportId
            self.neighbourhood = neighbourhood
            self.userId = userId
        }
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

        /// `userId` no longer follows `reportId`.
        public init(reportId: String, neighbourhood: String, userId: String) {
            self.reportId = reportId
            self.neighbourhood = neighbourhood
            self.userId = userId
        }
    }
}
