import EventSourcing
import Foundation

extension WorkplaceEvent {
    /// `workplace.newsPosted`: everything a news list shows, the author's member name as it was.
    public struct NewsPosted: WorkplacePayload {
        public static let typeName = "workplace.newsPosted"
        public var entityTags: [String] { ["news:\(newsId)", "location:\(locationId)"] }
        public var event: WorkplaceEvent { .newsPosted(self) }

        /// The organisation.
        public var organisationId: String
        /// The new item.
        public var newsId: String
        /// The location it is posted to; only its members (and admins) see it.
        public var locationId: String
        /// Trimmed.
        public var title: String
        /// Trimmed.
        public var text: String
        /// An image blob, when one was attached.
        public var imageBlobId: String?
        /// The admin who posted it.
        public var authorId: String
        /// The author's member name at the time.
        public var authorName: String
        /// When: the command's metadata time.
        public var postedAt: Date
    }

    /// `workplace.newsDeleted`.
    public struct NewsDeleted: WorkplacePayload {
        public static let typeName = "workplace.newsDeleted"
        public var entityTags: [String] { ["news:\(newsId)", "location:\(locationId)"] }
        public var event: WorkplaceEvent { .newsDeleted(self) }

        /// The organisation.
        public var organisationId: String
        /// The deleted item.
        public var newsId: String
        /// Its location.
        public var locationId: String
        /// The admin who deleted it.
        public var actorId: String
    }
}
