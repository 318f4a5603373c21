@testable import Accounts
import Albums
import Blobs
import Foundation
import Testing
@testable import Workplace
@testable import Projections

/// Uploads and references: who uploaded a blob, which live entities use it, and the set the
/// collector keeps, through every way a reference starts and ends.
@Suite("Blob read model: uploads and references", .timeLimit(.minutes(3)))
struct BlobReferenceTests {
    private typealias H = AlbumsHistory
    private let start = AlbumsHistory.start

    @Test func uploadsListEveryUploaderOnceAndKeepTheFirstTime() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.blobs
        try await fixture.append(H.upload(H.blob(1), by: "bob", at: start + 5))
        try await fixture.append(H.upload(H.blob(1), by: "ann", at: start + 10), H.upload(H.blob(2), by: "ann", at: start + 20))
        try await fixture.append(H.upload(H.blob(1), by: "bob", at: start + 30))

        #expect(try q.upload(H.blob(1)) == BlobUploadView(
            blobId: H.blob(1), contentType: "image/png", bytes: 1_234, uploaderIds: ["ann", "bob"], firstUploadedAt: start + 5))
        #expect(try q.upload(H.blob(2))?.uploaderIds == ["ann"])
        #expect(try q.upload(H.blob(3)) == nil)
        #expect(try q.wasUploaded(H.blob(1), by: "bob"))
        #expect(try q.wasUploaded(H.blob(2), by: "bob") == false, "someone else's upload")
        #expect(try q.wasUploaded(H.blob(3), by: "ann") == false)
        #expect(try q.wasUploaded("", by: "ann") == false)
        #expect(try q.wasUploaded(String(repeating: "f", count: 600), by: "ann") == false)
        #expect(try q.referencedBlobIds() == [], "an upload alone references nothing")
    }

    @Test func photosReferenceTheirBlobUntilDeletedOrTheirGroupIs() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.blobs
        try await fixture.append(H.register("ann"))
        try await fixture.append(H.create("g1", "One"), H.create("g2", "Two"))
        try await fixture.append(
            H.photo("g1", "p1", blob: H.blob(1)), H.photo("g1", "p2", blob: H.blob(2)), H.photo("g2", "p3", blob: H.blob(1)),
            H.photo("g1", "p4", blob: H.blob(4)))
        #expect(try q.references(to: H.blob(1)) == [.photo(groupId: "g1", photoId: "p1"), .photo(groupId: "g2", photoId: "p3")])
        #expect(try q.referencedBlobIds() == [H.blob(1), H.blob(2), H.blob(4)])

        try await fixture.append(H.deletePhoto("g1", "p1", blob: H.blob(1)))
        #expect(try q.references(to: H.blob(1)) == [.photo(groupId: "g2", photoId: "p3")])
        try await fixture.append(H.deletePhoto("g1", "p1", blob: H.blob(1)))  // again: nothing left to drop
        #expect(try q.referencedBlobIds() == [H.blob(1), H.blob(2), H.blob(4)])

        // The group's deletion drops its photos' references, whatever blob list the event carries.
        try await fixture.append(H.leave("g1", "ann"), H.delete("g1", "One", blobs: []))
        #expect(try q.references(to: H.blob(2)) == [])
        #expect(try q.references(to: H.blob(4)) == [])
        #expect(try q.referencedBlobIds() == [H.blob(1)], "g2's photo still uses blob 1")
    }

    @Test func anAvatarIsReferencedWhileCurrent() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.blobs
        try await fixture.append(H.register("ann"), H.register("bob"))
        try await fixture.append(AccountEvent.avatarChanged(.init(userId: "ann", blobId: H.blob(1))))
        try await fixture.append(AccountEvent.avatarChanged(.init(userId: "bob", blobId: H.blob(1))))
        #expect(try q.references(to: H.blob(1)) == [.avatar(userId: "ann"), .avatar(userId: "bob")])

        try await fixture.append(AccountEvent.avatarChanged(.init(userId: "ann", blobId: H.blob(2))))
        #expect(try q.references(to: H.blob(1)) == [.avatar(userId: "bob")], "the replaced avatar is no longer ann's")
        #expect(try q.references(to: H.blob(2)) == [.avatar(userId: "ann")])

        try await fixture.append(AccountEvent.erased(.init(userId: "bob", releasedTags: [])))
        #expect(try q.references(to: H.blob(1)) == [])
        #expect(try q.referencedBlobIds() == [H.blob(2)])
    }

    @Test func newsWithAnImageReferencesItUntilDeleted() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        let q = fixture.blobs
        func news(_ newsId: String, image: String?) -> WorkplaceEvent {
            .newsPosted(.init(
                organisationId: "org-1", newsId: newsId, locationId: "loc-1", title: "T", text: "X", imageBlobId: image,
                authorId: "ann", authorName: "Ann", postedAt: start))
        }
        try await fixture.append(news("n1", image: H.blob(1)), news("n2", image: nil), news("n3", image: H.blob(1)))
        #expect(try q.references(to: H.blob(1)) == [
            .news(organisationId: "org-1", newsId: "n1", locationId: "loc-1"), .news(organisationId: "org-1", newsId: "n3", locationId: "loc-1"),
        ])
        try await fixture.append(WorkplaceEvent.newsDeleted(.init(organisationId: "org-1", newsId: "n1", locationId: "loc-1", actorId: "ann")))
        try await fixture.append(WorkplaceEvent.newsDeleted(.init(organisationId: "org-1", newsId: "n2", locationId: "loc-1", actorId: "ann")))
        #expect(try q.references(to: H.blob(1)) == [.news(organisationId: "org-1", newsId: "n3", locationId: "loc-1")])
        try await fixture.append(WorkplaceEvent.newsDeleted(.init(organisationId: "org-1", newsId: "n3", locationId: "loc-1", actorId: "ann")))
        #expect(try q.referencedBlobIds() == [])
    }

    @Test func everyKindOfReferenceToOneBlobIsListed() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("ann"))
        try await fixture.append(H.create("g1", "One"), H.photo("g1", "p1", blob: H.blob(5)))
        try await fixture.append(AccountEvent.avatarChanged(.init(userId: "ann", blobId: H.blob(5))))
        try await fixture.append(WorkplaceEvent.newsPosted(.init(
            organisationId: "org-1", newsId: "n1", locationId: "loc-2", title: "T", text: "X", imageBlobId: H.blob(5),
            authorId: "ann", authorName: "Ann", postedAt: start)))
        #expect(try Set(fixture.blobs.references(to: H.blob(5))) == [
            .photo(groupId: "g1", photoId: "p1"), .avatar(userId: "ann"), .news(organisationId: "org-1", newsId: "n1", locationId: "loc-2"),
        ])
        #expect(try fixture.blobs.references(to: H.blob(6)) == [])
    }
}
