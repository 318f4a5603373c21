import Foundation

extension AccountsService {
    /// The image files an erasure is to delete (SPEC §1): the user's avatar and the photos the
    /// user added, each with when its file was last written or kept, read before the erasure's
    /// event so a use of the same bytes begun meanwhile is told apart.
    struct ErasedBlobs: Sendable {
        var touched: [String: Date] = [:]
    }

    /// What `deleteErasedBlobs` is to delete once `userId` is erased.
    func erasedBlobs(of userId: String) throws -> ErasedBlobs {
        var blobs = ErasedBlobs()
        for blobId in try runtime.blobReferences.blobsReferenced(by: userId) {
            if let touched = try runtime.blobs.lastTouched(blobId) { blobs.touched[blobId] = touched }
        }
        return blobs
    }

    /// Deletes from disk, before the erasure answers, each of the erased user's images that no
    /// live entity references once the erasure is projected (her photos and avatar no longer
    /// do) and that no one else uploaded; another user's same bytes stay, for the collector's
    /// grace period. A failure is 500: the account is erased (its keys are gone), and the
    /// collector deletes the unreferenced files after the grace period.
    func deleteErasedBlobs(_ blobs: ErasedBlobs, of userId: String) throws {
        do {
            for (blobId, touched) in blobs.touched.sorted(by: { $0.key < $1.key })
            where try runtime.blobReferences.isOnly(userId, using: blobId) {
                _ = try runtime.blobs.deleteErased(blobId, untouchedSince: touched)
            }
        } catch {
            throw Problem.internalError
        }
    }
}
