import EventLog
import Foundation
import Neighbourhood
import Testing
@testable import Projections

@Suite("Neighbourhood read models: reports, lists and the map", .timeLimit(.minutes(3)))
struct ReportListTests {
    @Test func aNeighbourhoodsReportsAreNewestFirstAndFilteredByCategory() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("r1", by: "ann", category: .event)
        try await fixture.post("r2", by: "bob", category: .complaint)
        try await fixture.post("elsewhere", by: "cat", in: "3011CD")
        try await fixture.appendForeignEvent()
        try await fixture.post("r3", by: "ann", category: .event)
        let q = fixture.queries
        #expect(try q.reports(in: "1012AB", category: nil, viewer: "bob", limit: 50, cursor: nil).ids == ["r3", "r2", "r1"])
        #expect(try q.reports(in: "1012AB", category: .event, viewer: "bob", limit: 50, cursor: nil).ids == ["r3", "r1"])
        #expect(try q.reports(in: "1012AB", category: .suspicious, viewer: "bob", limit: 50, cursor: nil).ids == [])
        #expect(try q.reports(in: "3011CD", category: nil, viewer: "cat", limit: 50, cursor: nil).ids == ["elsewhere"])
        let first = try #require(try q.reports(in: "1012AB", category: nil, viewer: "bob", limit: 50, cursor: nil).items.last)
        #expect(first.report.title == "Title of r1" && first.report.author == NeighbourView(userId: "ann", displayName: "Ann"))
        #expect(first.followerCount == 1 && first.replyCount == 0 && first.report.createdAt == NeighbourhoodFixture.start)
        #expect(!first.following, "Bob does not follow Ann's report")
    }

    @Test func pagesFollowTheCursorAndTheLastHasNoNext() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        for index in 1...5 { try await fixture.post("r\(index)", by: "ann") }
        let q = fixture.queries
        let one = try q.reports(in: "1012AB", category: nil, viewer: "ann", limit: 2, cursor: nil)
        #expect(one.ids == ["r5", "r4"])
        try await fixture.post("r6", by: "bob")  // lands before the cursor: no repeat, no skip
        let two = try q.reports(in: "1012AB", category: nil, viewer: "ann", limit: 2, cursor: one.next)
        #expect(two.ids == ["r3", "r2"])
        let three = try q.reports(in: "1012AB", category: nil, viewer: "ann", limit: 2, cursor: two.next)
        #expect(three.ids == ["r1"] && three.next == nil)
        let exact = try q.reports(in: "1012AB", category: nil, viewer: "ann", limit: 6, cursor: nil)
        #expect(exact.ids.count == 6 && exact.next == nil, "a full last page has no next either")
        #expect(throws: ListQueryError.malformedCursor) {
            try q.reports(in: "1012AB", category: .event, viewer: "ann", limit: 2, cursor: one.next)
        }
        #expect(throws: ListQueryError.malformedCursor) {
            try q.reports(in: "3011CD", category: nil, viewer: "ann", limit: 2, cursor: one.next)
        }
        #expect(throws: ListQueryError.limitOutOfRange(0, allowed: 1...500)) {
            try q.reports(in: "1012AB", category: nil, viewer: "ann", limit: 0, cursor: nil)
        }
    }

    @Test func aReportShowsItsRepliesOldestFirstToItsNeighbourhoodAndAuthor() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("r1", by: "ann")
        try await fixture.reply("r1", "a", by: "bob", at: NeighbourhoodFixture.start + 60)
        try await fixture.reply("r1", "b", by: "ann", at: NeighbourhoodFixture.start + 120)
        try await fixture.follow("r1", by: "bob")
        let q = fixture.queries
        let detail = try #require(try q.report(id: "r1", viewer: "bob", neighbourhood: "1012AB"))
        #expect(detail.replies.map(\.replyId) == ["a", "b"])
        #expect(detail.replies.first == ReplyView(replyId: "a", author: NeighbourView(userId: "bob", displayName: "Bob"),
                                                  message: "Reply a", createdAt: NeighbourhoodFixture.start + 60))
        #expect(detail.view.following && detail.view.followerCount == 2 && detail.view.replyCount == 2)
        #expect(try q.report(id: "r1", viewer: "cat", neighbourhood: "3011CD") == nil, "another neighbourhood")
        #expect(try q.report(id: "r1", viewer: "cat", neighbourhood: nil) == nil, "no neighbourhood")
        #expect(try q.report(id: "r1", viewer: "ann", neighbourhood: "3011CD") != nil, "the author, after moving")
        #expect(try q.report(id: "nope", viewer: "ann", neighbourhood: "1012AB") == nil)
    }

    @Test func myReportsAreMineWhereverIPostedThem() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("old", by: "ann", in: "1012AB")
        try await fixture.post("bobs", by: "bob")
        try await fixture.post("new", by: "ann", in: "3011CD")
        #expect(try fixture.queries.reports(by: "ann", limit: 50, cursor: nil).ids == ["new", "old"])
        #expect(try fixture.queries.reports(in: "1012AB", category: nil, viewer: "ann", limit: 50, cursor: nil).ids == ["bobs", "old"],
                "reports stay where they were posted")
    }

    @Test func theMapHasTheNeighbourhoodsPinsWithinTheBox() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("dam", by: "ann", category: .event, latitude: 52.373, longitude: 4.893)
        try await fixture.post("zuid", by: "bob", category: .attention, latitude: 52.338, longitude: 4.872)
        try await fixture.post("fiji", by: "ann", latitude: -17.7, longitude: 179.5)
        try await fixture.post("elsewhere", by: "cat", in: "3011CD", latitude: 52.373, longitude: 4.893)
        let q = fixture.queries
        #expect(try q.map(of: "1012AB", within: nil).map(\.reportId) == ["fiji", "zuid", "dam"])
        #expect(try q.map(of: "1012AB", within: MapBounds(parsing: "4.88,52.36,4.9,52.38")).map(\.reportId) == ["dam"])
        #expect(try q.map(of: "1012AB", within: MapBounds(parsing: "179,-20,-179,-10")).map(\.reportId) == ["fiji"])
        #expect(try q.map(of: "1012AB", within: MapBounds(parsing: "4.88,52.36,4.9,52.38")).first
            == ReportPin(reportId: "dam", authorId: "ann", title: "Title of dam", category: .event, latitude: 52.373, longitude: 4.893))
    }

    @Test func theMapShowsAtMostTheNewestPinsWithinTheBox() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        let count = NeighbourhoodQueries<LMDBEventStore>.mapPinsMax + 2
        for index in 0..<count { try await fixture.post("r\(index)", by: "ann", latitude: index == 0 ? 10 : 52) }
        let q = fixture.queries
        let all = try q.map(of: "1012AB", within: nil)
        #expect(all.count == NeighbourhoodQueries<LMDBEventStore>.mapPinsMax && all.first?.reportId == "r\(count - 1)")
        #expect(try q.map(of: "1012AB", within: MapBounds(parsing: "0,0,20,20")).map(\.reportId) == ["r0"],
                "an older pin in the box is found past the newest ones outside it")
    }
}
