import EventSourcing

// The workplace's most frequent events read straight from the scanned JSON (`NodeDecodable`):
// reviews with their answers and news make up most of a workplace log, and the answers'
// containers alone were a seventh of a rebuild through `init(from:)`; join requests, their
// answers and news deletions are the next seventh of a log, and were 4% of its initial build
// through `init(from:)`. Key for key what the synthesized `init(from:)` reads;
// `WorkplaceEventJSONTests` checks the two agree.

extension QuestionKind: NodeReadable {}

extension WorkplaceEvent.Answer: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            questionId: try object.value("questionId"), question: try object.value("question"), kind: try object.value("kind"),
            rating: try object.optional("rating"), yes: try object.optional("yes"), text: try object.optional("text"))
    }
}

extension WorkplaceEvent.ReviewSubmitted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            organisationId: try object.value("organisationId"), reviewId: try object.value("reviewId"),
            employeeId: try object.value("employeeId"), reviewerId: try object.value("reviewerId"),
            reviewerName: try object.value("reviewerName"), formId: try object.value("formId"), formName: try object.value("formName"),
            answers: try object.value("answers"), remark: try object.optional("remark"), submittedAt: try object.value("submittedAt"))
    }
}

extension WorkplaceEvent.NewsPosted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            organisationId: try object.value("organisationId"), newsId: try object.value("newsId"),
            locationId: try object.value("locationId"), title: try object.value("title"), text: try object.value("text"),
            imageBlobId: try object.optional("imageBlobId"), authorId: try object.value("authorId"),
            authorName: try object.value("authorName"), postedAt: try object.value("postedAt"))
    }
}

extension WorkplaceEvent.JoinRequested: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            organisationId: try object.value("organisationId"), userId: try object.value("userId"),
            locationId: try object.value("locationId"), employeeNumber: try object.value("employeeNumber"),
            name: try object.value("name"), requestedAt: try object.value("requestedAt"))
    }
}

extension WorkplaceEvent.JoinRequestAccepted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            organisationId: try object.value("organisationId"), userId: try object.value("userId"),
            locationId: try object.value("locationId"), employeeNumber: try object.value("employeeNumber"),
            name: try object.value("name"), actorId: try object.value("actorId"), acceptedAt: try object.value("acceptedAt"))
    }
}

extension WorkplaceEvent.JoinRequestRejected: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(organisationId: try object.value("organisationId"), userId: try object.value("userId"), actorId: try object.value("actorId"))
    }
}

extension WorkplaceEvent.NewsDeleted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            organisationId: try object.value("organisationId"), newsId: try object.value("newsId"),
            locationId: try object.value("locationId"), actorId: try object.value("actorId"))
    }
}
