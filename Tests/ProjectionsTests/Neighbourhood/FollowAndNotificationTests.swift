import EventLog
import Foundation
import Neighbourhood
import Testing
@testable import Projections

@Suite("Neighbourhood read models: follows, notifications and deletion", .timeLimit(.minutes(3)))
struct FollowAndNotificationTests {
    private func notifications(_ fixture: NeighbourhoodFixture, of user: String, in neighbourhood: String? = "1012AB") throws -> [String] {
        try fixture.queries.notifications(of: user, neighbourhood: neighbourhood, limit: 50, cursor: nil).items.map(\.replyId)
    }

    private func following(_ fixture: NeighbourhoodFixture, of user: String, in neighbourhood: String? = "1012AB") throws -> [String] {
        try fixture.queries.followedReports(of: user, neighbourhood: neighbourhood, limit: 50, cursor: nil).ids
    }

    @Test func theFollowListHasWhatIFollowNewestReportFirst() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("r1", by: "ann")
        try await fixture.post("r2", by: "ann")
        try await fixture.post("r3", by: "bob")
        try await fixture.follow("r1", by: "bob")
        #expect(try following(fixture, of: "bob") == ["r3", "r1"], "the author follows their own")
        #expect(try following(fixture, of: "ann") == ["r2", "r1"])
        try await fixture.unfollow("r3", by: "bob")
        try await fixture.unfollow("r1", by: "ann")
        #expect(try following(fixture, of: "bob") == ["r1"])
        #expect(try following(fixture, of: "ann") == ["r2"])
        let r1 = try #require(try fixture.queries.report(id: "r1", viewer: "bob", neighbourhood: "1012AB"))
        #expect(r1.view.followerCount == 1 && r1.view.following)
    }

    @Test func followersButTheReplierAreNotifiedNewestFirst() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("r1", by: "ann")
        try await fixture.follow("r1", by: "bob")
        try await fixture.reply("r1", "x1", by: "bob", at: NeighbourhoodFixture.start + 60)
        try await fixture.reply("r1", "x2", by: "dan", at: NeighbourhoodFixture.start + 120)
        try await fixture.reply("r1", "x3", by: "ann")
        #expect(try notifications(fixture, of: "ann") == ["x2", "x1"])
        #expect(try notifications(fixture, of: "bob") == ["x3", "x2"])
        #expect(try notifications(fixture, of: "dan") == [], "replying is not following")
        let item = try #require(try fixture.queries.notifications(of: "ann", neighbourhood: "1012AB", limit: 1, cursor: nil))
        #expect(item.items == [NotificationItem(kind: "reply", reportId: "r1", reportTitle: "Title of r1", replyId: "x2",
                                                from: NeighbourView(userId: "dan", displayName: "Dan"),
                                                createdAt: NeighbourhoodFixture.start + 120)])
        let rest = try fixture.queries.notifications(of: "ann", neighbourhood: "1012AB", limit: 1, cursor: item.next)
        #expect(rest.items.map(\.replyId) == ["x1"] && rest.next == nil)
        try await fixture.unfollow("r1", by: "bob")
        try await fixture.reply("r1", "x4", by: "ann")
        #expect(try notifications(fixture, of: "bob") == ["x3", "x2"], "no longer following: no new notifications")
    }

    @Test func aDeletedReportLeavesEveryListTheMapAndTheNotifications() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("keep", by: "ann", category: .complaint)
        try await fixture.post("gone", by: "ann", category: .complaint)
        try await fixture.follow("gone", by: "bob")
        try await fixture.follow("keep", by: "bob")
        try await fixture.reply("gone", "g1", by: "bob")
        try await fixture.reply("keep", "k1", by: "bob")
        #expect(try notifications(fixture, of: "ann") == ["k1", "g1"])
        try await fixture.delete("gone", by: "ann")
        let q = fixture.queries
        #expect(try q.reports(in: "1012AB", category: nil, viewer: "bob", limit: 50, cursor: nil).ids == ["keep"])
        #expect(try q.reports(in: "1012AB", category: .complaint, viewer: "bob", limit: 50, cursor: nil).ids == ["keep"])
        #expect(try q.reports(by: "ann", limit: 50, cursor: nil).ids == ["keep"])
        #expect(try following(fixture, of: "bob") == ["keep"] && following(fixture, of: "ann") == ["keep"])
        #expect(try q.map(of: "1012AB", within: nil).map(\.reportId) == ["keep"])
        #expect(try notifications(fixture, of: "ann") == ["k1"])
        #expect(try q.report(id: "gone", viewer: "ann", neighbourhood: "1012AB") == nil)
        let keep = try #require(try q.report(id: "keep", viewer: "ann", neighbourhood: "1012AB"))
        #expect(keep.replies.map(\.replyId) == ["k1"] && keep.view.followerCount == 2)
        // The queries also skip what a deletion should have removed; the tables must not hold it.
        let table = NeighbourhoodReportsProjection.self
        let expected = [table.reports: 1, table.activity: 1, table.neighbourhoodReports: 1, table.categoryReports: 1, table.authorReports: 1,
                        table.followedReports: 2, table.replies: 1, table.notifications: 1]
        #expect(Set(expected.keys) == Set(NeighbourhoodReportsProjection().tables), "every table is checked")
        for (name, count) in expected {
            let keys = try storedKeys(fixture, name)
            #expect(keys.count == count && !keys.contains { $0.hasPrefix("gone") }, "\(name): \(keys)")
        }
    }

    /// Every key of one of the projection's tables. Values carry no type tag, so each table is
    /// read as the type it stores, which also checks that what is left still decodes.
    private func storedKeys(_ fixture: NeighbourhoodFixture, _ table: String) throws -> [String] {
        try fixture.engine.read(NeighbourhoodProjections.reports) { model in
            func keys<Value: ReadModelValue>(_ type: Value.Type) throws -> [String] {
                try model.entries(type, in: table, limit: .max).map(\.key)
            }
            let tables = NeighbourhoodReportsProjection.self
            switch table {
            case tables.reports: return try keys(StoredReport.self)
            case tables.activity: return try keys(ReportActivity.self)
            case tables.neighbourhoodReports: return try keys(ReportPin.self)
            case tables.replies: return try keys(StoredReply.self)
            default: return try keys(String.self)  // the lists, indexes and notifications hold ids
            }
        }
    }

    @Test func aUserWhoMovedSeesTheNewNeighbourhoodsFollowsAndTheirOwn() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await fixture.post("canal", by: "ann")
        try await fixture.post("bobs", by: "bob")
        try await fixture.follow("bobs", by: "ann")
        try await fixture.post("harbour", by: "cat", in: "3011CD")
        try await fixture.reply("bobs", "b1", by: "bob")
        try await fixture.reply("canal", "c1", by: "bob")
        // Ann moves to 3011CD: her own report stays reachable, Bob's leaves her lists.
        try await fixture.follow("harbour", by: "ann", in: "3011CD")
        #expect(try following(fixture, of: "ann", in: "3011CD") == ["harbour", "canal"])
        #expect(try notifications(fixture, of: "ann", in: "3011CD") == ["c1"])
        #expect(try following(fixture, of: "ann", in: nil) == ["canal"], "without a postcode: only her own")
        #expect(try following(fixture, of: "ann", in: "1012AB") == ["bobs", "canal"], "moving back shows them again")
        #expect(try notifications(fixture, of: "ann", in: "1012AB") == ["c1", "b1"])
    }

    @Test func aPageSkippingInvisibleEntriesStillFillsUp() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        for index in 0..<6 { try await fixture.post("x\(index)", by: "bob") }  // Ann follows all, then moves
        for index in 0..<6 { try await fixture.follow("x\(index)", by: "ann") }
        try await fixture.post("mine", by: "ann")
        for index in 0..<3 { try await fixture.post("h\(index)", by: "cat", in: "3011CD") }
        for index in 0..<3 { try await fixture.follow("h\(index)", by: "ann", in: "3011CD") }
        let first = try fixture.queries.followedReports(of: "ann", neighbourhood: "3011CD", limit: 2, cursor: nil)
        #expect(first.ids == ["h2", "h1"])
        let second = try fixture.queries.followedReports(of: "ann", neighbourhood: "3011CD", limit: 2, cursor: first.next)
        #expect(second.ids == ["h0", "mine"] && second.next == nil)
    }
}
