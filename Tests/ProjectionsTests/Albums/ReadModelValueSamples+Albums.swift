import Foundation
@testable import Projections

extension ValueSample {
    static let albums: [ValueSample] = [
        ValueSample("StoredGroup", StoredGroup(groupId: "group-1", name: "Zomer 🏖", ownerId: "user-1", createdAt: SampleDates.first, memberCount: 500)),
        ValueSample("AlbumsAccount", AlbumsAccount(email: "ånn@example.org", displayName: "Ann")),
        ValueSample("PhotoView", PhotoView(
            photoId: "photo-1", blobId: String(repeating: "a", count: 64), description: "Op het strand\nmet Bo", addedBy: "user-2",
            addedByName: "Bo", addedAt: SampleDates.second, position: 1 << 45)),
        ValueSample("MessageView", MessageView(messageId: "msg-1", text: "Hoi!", authorId: "user-3", authorName: "Cees", postedAt: SampleDates.first)),
    ]

    static let blobs: [ValueSample] = [
        ValueSample("StoredUpload", StoredUpload(contentType: "image/webp", bytes: 10 * 1024 * 1024, firstUploadedAt: SampleDates.second)),
        ValueSample("BlobReference, photo", BlobReference.photo(groupId: "group-1", photoId: "photo-2")),
        ValueSample("BlobReference, avatar", BlobReference.avatar(userId: "user-7")),
        ValueSample("BlobReference, news", BlobReference.news(organisationId: "org-1", newsId: "news-3", locationId: "loc-4")),
        ValueSample("StoredBlobReference", StoredBlobReference(
            blobId: String(repeating: "b", count: 64), reference: .news(organisationId: "org-2", newsId: "news-5", locationId: "loc-6"))),
    ]
}
