/// Keys of the blob references read model: `<blob>/<user>` lists a blob's uploaders, and
/// `<blob>/<kind>/<ids>` its references, so one prefix scan answers "who references it".
enum BlobKeys {
    /// `<blob>` in the `uploads` table.
    static func blob(_ blobId: String) -> String {
        ReadModelKeys.component(blobId)
    }

    /// Every key of one blob's uploaders or references starts with this.
    static func blobPrefix(_ blobId: String) -> String {
        ReadModelKeys.component(blobId) + "/"
    }

    /// `<blob>/<user>`: one uploader.
    static func uploader(_ blobId: String, _ userId: String) -> String {
        blobPrefix(blobId) + ReadModelKeys.component(userId)
    }

    /// `<blob>/p/<group>/<photo>`, `<blob>/a/<user>` or `<blob>/n/<org>/<news>`: one reference.
    static func reference(_ blobId: String, _ reference: BlobReference) -> String {
        switch reference {
        case let .photo(groupId, photoId):
            blobPrefix(blobId) + "p/" + ReadModelKeys.component(groupId) + "/" + ReadModelKeys.component(photoId)
        case let .avatar(userId):
            blobPrefix(blobId) + "a/" + ReadModelKeys.component(userId)
        case let .news(organisationId, newsId, _):
            blobPrefix(blobId) + "n/" + ReadModelKeys.component(organisationId) + "/" + ReadModelKeys.component(newsId)
        }
    }

    /// `<owner>/<id>`: a group's photo or an organisation's news item, for finding its blob
    /// when it goes.
    static func item(_ ownerId: String, _ id: String) -> String {
        ReadModelKeys.component(ownerId) + "/" + ReadModelKeys.component(id)
    }

    /// Every key of one group's photos starts with this.
    static func ownerPrefix(_ ownerId: String) -> String {
        ReadModelKeys.component(ownerId) + "/"
    }
}
