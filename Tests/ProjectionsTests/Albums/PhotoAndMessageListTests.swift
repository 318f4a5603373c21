import Albums
import Foundation
import Testing
@testable import Projections

/// Photos and messages: newest first, paged by opaque cursors per group; a deleted photo leaves
/// the list; bad paging input is refused as the client's.
@Suite("Albums read model: photos and messages", .timeLimit(.minutes(3)))
struct PhotoAndMessageListTests {
    private typealias H = AlbumsHistory
    private let start = AlbumsHistory.start

    private func groups(_ fixture: AlbumsFixture) async throws {
        try await fixture.append(H.register("ann"), H.register("bob"))
        try await fixture.append(H.create("g1", "One"), H.invite("g1", "bob@example.org"), H.create("g2", "Two", owner: "bob"))
    }

    @Test func photosAreNewestFirstInPagesAndADeletedOneLeavesThem() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await groups(fixture)
        for n in 0..<7 {
            try await fixture.append(H.photo("g1", "p\(n)", blob: H.blob(n), by: n % 2 == 0 ? "ann" : "bob", at: start + Double(n)))
        }
        try await fixture.append(H.photo("g2", "px", blob: H.blob(9), by: "bob"))

        let q = fixture.albums
        #expect(try pages { try q.photos(of: "g1", limit: 3, cursor: $0) }.map { $0.map(\.photoId) } == [["p6", "p5", "p4"], ["p3", "p2", "p1"], ["p0"]])
        let p1 = try #require(try q.photo("p1", of: "g1"))
        #expect(p1.blobId == H.blob(1) && p1.description == "About p1" && p1.addedBy == "bob" && p1.addedByName == "Bob" && p1.addedAt == start + 1)
        #expect(try q.photo("px", of: "g1") == nil, "another group's photo")
        #expect(try q.photo("p9", of: "g1") == nil)

        // A photo added between two page reads neither repeats one nor skips one.
        let first = try q.photos(of: "g1", limit: 2, cursor: nil)
        try await fixture.append(H.photo("g1", "p7", blob: H.blob(7)))
        let second = try q.photos(of: "g1", limit: 2, cursor: first.next)
        #expect(first.items.map(\.photoId) + second.items.map(\.photoId) == ["p6", "p5", "p4", "p3"])

        try await fixture.append(H.deletePhoto("g1", "p3", blob: H.blob(3), by: "bob"))
        #expect(try q.photo("p3", of: "g1") == nil)
        #expect(try pages { try q.photos(of: "g1", limit: 4, cursor: $0) }.flatMap { $0 }.map(\.photoId) == ["p7", "p6", "p5", "p4", "p2", "p1", "p0"])
        #expect(try q.photos(of: "g2", limit: nil, cursor: nil).items.map(\.photoId) == ["px"])
    }

    @Test func messagesAreNewestFirstInPages() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await groups(fixture)
        for n in 0..<5 {
            try await fixture.append(H.message("g1", "m\(n)", by: n % 2 == 0 ? "ann" : "bob", at: start + Double(n)))
        }
        try await fixture.append(H.message("g2", "mx", by: "bob"))
        let q = fixture.albums
        let all = try pages { try q.messages(of: "g1", limit: 2, cursor: $0) }
        #expect(all.map { $0.map(\.messageId) } == [["m4", "m3"], ["m2", "m1"], ["m0"]])
        #expect(all[2] == [MessageView(messageId: "m0", text: "Text of m0", authorId: "ann", authorName: "Ann", postedAt: start)])
        #expect(try q.messages(of: "g2", limit: nil, cursor: nil).items.map(\.messageId) == ["mx"])
        #expect(try q.messages(of: "nope", limit: nil, cursor: nil) == ItemPage(items: [], next: nil))
    }

    @Test func badPagingInputIsRefused() async throws {
        let fixture = try await AlbumsFixture()
        defer { fixture.close() }
        try await groups(fixture)
        for n in 0..<3 { try await fixture.append(H.photo("g1", "p\(n)", blob: H.blob(n)), H.message("g1", "m\(n)")) }
        let q = fixture.albums
        for limit in [0, -1, 501, Int.max] {
            #expect(throws: ListQueryError.limitOutOfRange(limit, allowed: ListPage.itemsPerPage)) { try q.photos(of: "g1", limit: limit, cursor: nil) }
            #expect(throws: ListQueryError.limitOutOfRange(limit, allowed: ListPage.itemsPerPage)) { try q.messages(of: "g1", limit: limit, cursor: nil) }
        }
        let cursor = try #require(try q.photos(of: "g1", limit: 1, cursor: nil).next)
        #expect(throws: ListQueryError.malformedCursor, "another group's cursor") { try q.photos(of: "g2", limit: 1, cursor: cursor) }
        for bad in ["", "not a cursor", "%%%", PageCursor.encode("g1/123"), String(repeating: "A", count: 2_000)] {
            #expect(throws: ListQueryError.malformedCursor, "\(bad.prefix(20))") { try q.photos(of: "g1", limit: 1, cursor: bad) }
            #expect(throws: ListQueryError.malformedCursor) { try q.messages(of: "g1", limit: 1, cursor: bad) }
        }
    }

    private func pages<Item>(_ read: (String?) throws -> ItemPage<Item>) throws -> [[Item]] {
        var page = try read(nil)
        var items = [page.items]
        while let next = page.next {
            page = try read(next)
            items.append(page.items)
        }
        return items
    }
}
