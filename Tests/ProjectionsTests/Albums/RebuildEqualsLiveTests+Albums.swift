import Accounts
import Albums
import Blobs
import Foundation
@testable import Projections

/// The albums' and blobs' part of the all-apps log, by the real albums and accounts deciders:
/// uploads, a group with an invitation claimed, one pending and one to an address an account
/// moves to later, photos (one deleted), messages, avatars (one replaced),
/// and a second group whose last member leaves (deleting it and its photo), in several appends
/// between the other apps' commands.
extension RebuildEqualsLiveTests {
    private typealias Actor = AlbumsCommand.Actor

    private static func blob(_ n: Int) -> String { String(repeating: String(n), count: 64) }

    func albums(_ fixture: AllAppsFixture) async throws {
        let start = AllAppsFixture.start
        // Uploads are appended as recorded: the fixture's one fold of every blob's events would
        // make the decider refuse an uploader's second blob as a repeat of the first.
        for (n, user) in [(1, "ann"), (2, "bob"), (3, "dan"), (4, "bob")] {
            try await fixture.append([BlobEvent.uploaded(.init(
                blobId: Self.blob(n), contentType: ImageType.jpeg.rawValue, bytes: 1_000 * n, uploaderId: user,
                uploadedAt: start + Double(n)))], by: user)
        }
        let ann = Actor(email: "ann@example.org", displayName: "Ann"), bob = Actor(email: "bob@example.org", displayName: "Bob")
        try await fixture.run(AlbumsDecider.self, .createGroup(groupId: "g1", name: "Holiday", ownerId: "ann", by: ann), by: "ann")
        for email in ["bob@example.org", "erin@example.org", "annie@example.org"] {
            try await fixture.run(AlbumsDecider.self, .invite(groupId: "g1", email: email, by: ann), by: "ann")
        }
        try await fixture.run(AlbumsDecider.self, .claimInvitation(groupId: "g1", email: "bob@example.org"), by: "bob")
        try await fixture.run(AlbumsDecider.self, .addPhoto(groupId: "g1", photoId: "p1", blobId: Self.blob(1), description: "Beach", by: ann), by: "ann")
        try await fixture.run(AlbumsDecider.self, .addPhoto(groupId: "g1", photoId: "p2", blobId: Self.blob(2), description: "Dunes", by: bob), by: "bob")
        try await fixture.run(AlbumsDecider.self, .postMessage(groupId: "g1", messageId: "m1", text: "Lovely!", by: bob), by: "bob")
        try await fixture.run(AccountDecider.self, .setAvatar(.init(userId: "bob", blobId: Self.blob(2))), by: "bob")

        // A group whose last member leaves: it goes, with its photo's reference.
        let dan = Actor(email: "dan@example.org", displayName: "Dan")
        try await fixture.run(AlbumsDecider.self, .createGroup(groupId: "g2", name: "Attic", ownerId: "dan", by: dan), by: "dan")
        try await fixture.run(AlbumsDecider.self, .addPhoto(groupId: "g2", photoId: "p3", blobId: Self.blob(3), description: "Dust", by: dan), by: "dan")
        try await fixture.run(AlbumsDecider.self, .postMessage(groupId: "g2", messageId: "m2", text: "Bye", by: dan), by: "dan")
        try await fixture.run(AlbumsDecider.self, .leave(groupId: "g2", by: dan), by: "dan")
    }

    /// After `accountsLater`, where Ann's e-mail became annie@example.org (invited above).
    func albumsLater(_ fixture: AllAppsFixture) async throws {
        let annie = Actor(email: "annie@example.org", displayName: "Ann"), bob = Actor(email: "bob@example.org", displayName: "Bob")
        try await fixture.run(AlbumsDecider.self, .postMessage(groupId: "g1", messageId: "m3", text: "Still here", by: annie), by: "ann")
        try await fixture.run(AlbumsDecider.self, .deletePhoto(groupId: "g1", photoId: "p2", by: bob), by: "bob")
        try await fixture.run(AccountDecider.self, .setAvatar(.init(userId: "bob", blobId: Self.blob(4))), by: "bob")
        try await fixture.run(AccountDecider.self, .setAvatar(.init(userId: "ann", blobId: Self.blob(1))), by: "ann")
        try await fixture.run(AlbumsDecider.self, .invite(groupId: "g1", email: "cara@example.org", by: bob), by: "bob")
        try await fixture.run(AlbumsDecider.self, .leave(groupId: "g1", by: bob), by: "bob")
    }
}
