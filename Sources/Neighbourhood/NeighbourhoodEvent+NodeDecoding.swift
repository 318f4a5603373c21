import EventSourcing

// The neighbourhood's most frequent events read straight from the scanned JSON
// (`NodeDecodable`): reports, their follows and replies make up nearly all of its log. Key for
// key what the synthesized `init(from:)` reads; `NeighbourhoodEventJSONTests` checks the two agree.

extension ReportCategory: NodeReadable {}

extension NeighbourhoodEvent.ReportPosted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            reportId: try object.value("reportId"), neighbourhood: try object.value("neighbourhood"),
            authorId: try object.value("authorId"), authorDisplayName: try object.value("authorDisplayName"),
            title: try object.value("title"), description: try object.value("description"), category: try object.value("category"),
            latitude: try object.value("latitude"), longitude: try object.value("longitude"), postedAt: try object.value("postedAt"))
    }
}

extension NeighbourhoodEvent.ReplyPosted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            reportId: try object.value("reportId"), neighbourhood: try object.value("neighbourhood"), replyId: try object.value("replyId"),
            authorId: try object.value("authorId"), authorDisplayName: try object.value("authorDisplayName"),
            message: try object.value("message"), postedAt: try object.value("postedAt"))
    }
}

extension NeighbourhoodEvent.ReportFollowed: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(reportId: try object.value("reportId"), neighbourhood: try object.value("neighbourhood"), userId: try object.value("userId"))
    }
}

extension NeighbourhoodEvent.ReportUnfollowed: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(reportId: try object.value("reportId"), neighbourhood: try object.value("neighbourhood"), userId: try object.value("userId"))
    }
}
