import EventSourcing

extension AlbumsDecider {
    /// Only the blob id's shape is checked here: that the actor uploaded it and the file is in
    /// the store is I/O, which the API checks before issuing the command.
    static func addPhoto(_ photoId: String, blobId: String, description rawDescription: String, acting: Acting)
        throws(AlbumsError) -> [AlbumsEvent]
    {
        var checks = FieldChecks()
        checks.blobId(blobId)
        let description = checks.text(
            rawDescription, in: AlbumsLimits.photoDescriptionCharacters, field: "description", kind: .multiLine)
        try checks.check { AlbumsError.validationFailed($0) }
        guard !acting.group.usedIds.contains(photoId) else { throw .idTaken }
        guard acting.group.photos.count < AlbumsLimits.photosPerGroupMax else { throw .limitReached(.photos) }
        return [.photoAdded(.init(
            groupId: acting.groupId, photoId: photoId, blobId: blobId, description: description, addedBy: acting.userId,
            addedByName: acting.displayName, addedAt: acting.metadata.now))]
    }

    /// A photo is its adder's: another member may see it but not delete it.
    static func deletePhoto(_ photoId: String, acting: Acting) throws(AlbumsError) -> [AlbumsEvent] {
        guard let photo = acting.group.photos[photoId] else { throw .photoNotFound }
        guard photo.addedBy == acting.userId else { throw .notTheOwner }
        return [.photoDeleted(.init(groupId: acting.groupId, photoId: photoId, blobId: photo.blobId, actorId: acting.userId))]
    }

    /// The message id is not checked for reuse: the state keeps no message (see `AlbumsState`).
    static func postMessage(_ messageId: String, text rawText: String, acting: Acting) throws(AlbumsError) -> [AlbumsEvent] {
        var checks = FieldChecks()
        let text = checks.text(rawText, in: AlbumsLimits.messageCharacters, field: "text", kind: .multiLine)
        try checks.check { AlbumsError.validationFailed($0) }
        return [.messagePosted(.init(
            groupId: acting.groupId, messageId: messageId, text: text, authorId: acting.userId,
            authorName: acting.displayName, postedAt: acting.metadata.now))]
    }
}
