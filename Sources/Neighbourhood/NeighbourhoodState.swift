/// What neighbourhood decisions need, folded from a command's boundary (one report's events).
public struct NeighbourhoodState: Sendable, Equatable {
    /// Reports by id, deleted ones included so that their ids are never reused.
    public internal(set) var reports: [String: Report] = [:]

    /// No reports.
    public init() {}

    /// One report.
    public struct Report: Sendable, Equatable {
        /// Its id.
        public internal(set) var reportId: String
        /// The neighbourhood it was posted in.
        public internal(set) var neighbourhood: String
        /// Its author.
        public internal(set) var authorId: String
        /// Whether its author deleted it; a deleted report accepts nothing.
        public internal(set) var isDeleted = false
        /// Who follows it now.
        public internal(set) var followers: Set<String> = []
        /// Its replies' ids, for unique ids and the reply limit.
        public internal(set) var replyIds: Set<String> = []

        /// A report as posted, before its author's follow.
        public init(reportId: String, neighbourhood: String, authorId: String) {
            self.reportId = reportId
            self.neighbourhood = neighbourhood
            self.authorId = authorId
        }
    }
}
