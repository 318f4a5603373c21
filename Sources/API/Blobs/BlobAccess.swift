import Foundation
import Projections
import Workplace

/// Who may read an image (SPEC §1 "Blobs"): its uploaders, and whoever may see a live entity
/// that shows it — a photo of a group they are a member of, a news item they may read
/// (`WorkplaceAccess`), the current avatar of someone they share a house, photo group,
/// organisation, quiz game or neighbourhood with. Everyone else is told the image does not exist.
///
/// Every rule reads the read models as they are now, so access ends with the entity: a deleted
/// photo, a group whose last member left, a replaced avatar or a deleted news item no longer
/// opens its image to anyone but its uploader.
struct BlobAccess {
    let runtime: LogbookRuntime

    /// Whether `viewer` may read `blobId`.
    func maySee(_ blobId: String, viewer: String) throws -> Bool {
        guard let upload = try runtime.blobReferences.upload(blobId) else { return false }
        if upload.uploaderIds.contains(viewer) { return true }
        for reference in try runtime.blobReferences.references(to: blobId) where try maySee(reference, viewer: viewer) {
            return true
        }
        return false
    }

    /// Whether `viewer` may see the entity `reference` names.
    func maySee(_ reference: BlobReference, viewer: String) throws -> Bool {
        switch reference {
        case .photo(let groupId, _):
            try runtime.albums.isMember(viewer, of: groupId)
        case .news(let organisationId, _, let locationId):
            try maySeeNews(of: organisationId, at: locationId, viewer: viewer)
        case .avatar(let owner):
            try sharesSomething(viewer, with: owner)
        }
    }

    /// The rule of the news list: an admin reads every location's news, an employee their own's.
    private func maySeeNews(of organisationId: String, at locationId: String, viewer: String) throws -> Bool {
        let membership = try runtime.workplace.membership(of: viewer, in: organisationId)
        return (try? WorkplaceAccess.newsScope(requested: locationId, WorkplaceRoutes.viewer(viewer, membership))) != nil
    }

    /// Whether `viewer` and `owner` are in one house, one photo group, one organisation (both
    /// accepted members), one quiz game or one neighbourhood now (or are the same user).
    private func sharesSomething(_ viewer: String, with owner: String) throws -> Bool {
        if viewer == owner { return true }
        if let house = try runtime.household.houseOf(user: viewer), try runtime.household.houseOf(user: owner) == house { return true }
        if try runtime.albums.shareAGroup(viewer, owner) { return true }
        if try runtime.workplace.shareAnOrganisation(viewer, owner) { return true }
        if let postcode = try runtime.accounts.profile(viewer)?.postcode, try runtime.accounts.profile(owner)?.postcode == postcode {
            return true
        }
        return try playedAgainst(viewer, owner)
    }

    /// Whether `viewer` has a quiz game with `owner`, finished or not, page by page.
    private func playedAgainst(_ viewer: String, _ owner: String) throws -> Bool {
        var cursor: String?
        repeat {
            let page = try runtime.quiz.games(of: viewer, limit: ListPage.itemsPerPage.upperBound, cursor: cursor)
            if page.games.contains(where: { $0.opponent.player.userId == owner }) { return true }
            cursor = page.next
        } while cursor != nil
        return false
    }
}
