import EventSourcing

extension WorkplaceDecider {
    /// Only `imageBlobId`'s shape is checked here (a blob id, `SHA256Hex`): that the author
    /// uploaded it and the file is in the store is I/O, which the API checks before issuing the
    /// command.
    static func postNews(
        _ newsId: String, locationId: String, title rawTitle: String, text rawText: String, imageBlobId: String?,
        admin acting: Acting, metadata: CommandMetadata
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        guard acting.organisation.locations[locationId] != nil else { throw .locationNotFound }
        var checks = FieldChecks()
        let title = checks.text(rawTitle, in: WorkplaceLimits.newsTitleCharacters, field: "title")
        let text = checks.text(rawText, in: WorkplaceLimits.newsTextCharacters, field: "text", kind: .multiLine)
        if let imageBlobId { checks.blobId(imageBlobId, field: "imageBlobId") }
        try checks.check()
        guard !acting.organisation.usedIds.contains(newsId) else { throw .idTaken }
        return [.newsPosted(.init(
            organisationId: acting.organisationId, newsId: newsId, locationId: locationId, title: title, text: text,
            imageBlobId: imageBlobId, authorId: acting.actorId, authorName: acting.member.name, postedAt: metadata.now))]
    }

    static func deleteNews(_ newsId: String, admin acting: Acting) throws(WorkplaceError) -> [WorkplaceEvent] {
        guard let news = acting.organisation.liveNews(newsId) else { throw .newsNotFound }
        return [.newsDeleted(.init(
            organisationId: acting.organisationId, newsId: newsId, locationId: news.locationId, actorId: acting.actorId))]
    }
}
