import Accounts
import Albums
import EventSourcing
import Foundation
import Testing
@testable import Projections

/// ADR 0018: `albums.groups` keeps what a user wrote (chat messages, photo descriptions) and her
/// name beside it as the log stores them, sealed, and `AlbumsQueries` opens them: never in the
/// read-model file in the clear, and read erased as soon as her key is destroyed.
@Suite("Albums read model: texts and names kept sealed", .timeLimit(.minutes(2)))
struct AlbumsSealedTextTests {
    private typealias H = AlbumsHistory
    private static let text = "Meet at the pier-4e2b"
    private static let description = "Sunset over the pier-81d0"
    private static let name = "Beatrix Marker-5c7a"

    @Test func aMessageAndAPhotoDescriptionAreNeverInTheReadModelFileAndReadErasedAtOnce() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let fixture = try await AlbumsFixture(personalData: keys.keyring)
        defer { fixture.close() }
        let q = fixture.albums
        try await fixture.append(H.register("ann"), H.register("bob", name: "Bobby"))
        try await fixture.append(H.create("g1", "Holiday"), H.invite("g1", "bob@example.org"), H.claim("g1", "bob"))
        try await fixture.append(AlbumsEvent.messagePosted(.init(
            groupId: "g1", messageId: "m1", text: Self.text, authorId: "bob", authorName: Self.name, postedAt: H.start)))
        try await fixture.append(H.upload(H.blob(1), by: "bob"))
        try await fixture.append(AlbumsEvent.photoAdded(.init(
            groupId: "g1", photoId: "p1", blobId: H.blob(1), description: Self.description, addedBy: "bob", addedByName: Self.name,
            addedAt: H.start)))
        let message = try #require(try q.messages(of: "g1", limit: nil, cursor: nil).items.first)
        #expect(message.text == Self.text && message.authorName == Self.name)
        #expect(try q.photo("p1", of: "g1").map { [$0.description, $0.addedByName] } == [Self.description, Self.name])
        #expect(try q.photos(of: "g1", limit: nil, cursor: nil).items.map(\.description) == [Self.description])
        let file = (fixture.directory as NSString).appendingPathComponent("readmodels/data.mdb")
        let bytes = try #require(FileManager.default.contents(atPath: file))
        for text in [Self.text, Self.description, Self.name] {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "the read-model file never held \(text) in the clear")
        }

        try keys.keyring.erase("bob")  // what `ErasureFollower` does in the batch that projects `account.erased`
        let erased = try #require(try q.messages(of: "g1", limit: nil, cursor: nil).items.first)
        #expect(erased.text == "" && erased.authorName == PersonalDataSeal.deletedUser && erased.authorId == "bob")
        #expect(try q.photo("p1", of: "g1").map { [$0.description, $0.addedByName] } == ["", PersonalDataSeal.deletedUser])
    }
}
