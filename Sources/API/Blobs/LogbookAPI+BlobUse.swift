import Blobs
import EventSourcing
import Foundation

extension LogbookAPI {
    /// Refuses `blobId` unless the caller uploaded it (a `blob.uploaded` of theirs) and the
    /// store holds its file: a photo, an avatar or a news item shows only an image its author
    /// stored, never someone else's found by its id. The deciders check only the id's shape;
    /// this is the I/O half, done before the command. `refusal` makes the domain's 422 on `field`.
    /// The file gets a fresh grace period (`BlobStore.keep`): a collection running now read the
    /// references before this command's entity exists, and must not delete the file under it.
    func checkOwnUpload(_ blobId: String, by userId: String, field: String, refusal: (FieldError) -> Problem) throws {
        guard BlobLimits.isBlobId(blobId), try runtime.blobReferences.wasUploaded(blobId, by: userId), try runtime.blobs.keep(blobId) else {
            throw refusal(FieldError(field, "Not an image you uploaded (POST /v1/blobs)."))
        }
    }
}
