import EventSourcing

// The albums' most frequent events read straight from the scanned JSON (`NodeDecodable`):
// photos and messages make up most of a group's log. Key for key what the synthesized
// `init(from:)` reads; `AlbumsEventCodingTests` checks the two agree.

extension AlbumsEvent.PhotoAdded: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            groupId: try object.value("groupId"), photoId: try object.value("photoId"), blobId: try object.value("blobId"),
            description: try object.value("description"), addedBy: try object.value("addedBy"),
            addedByName: try object.value("addedByName"), addedAt: try object.value("addedAt"))
    }
}

extension AlbumsEvent.MessagePosted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            groupId: try object.value("groupId"), messageId: try object.value("messageId"), text: try object.value("text"),
            authorId: try object.value("authorId"), authorName: try object.value("authorName"), postedAt: try object.value("postedAt"))
    }
}
