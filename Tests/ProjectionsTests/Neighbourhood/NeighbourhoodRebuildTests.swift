import EventLog
import Foundation
import Neighbourhood
import Testing
@testable import Projections

@Suite("Neighbourhood read models: rebuild", .timeLimit(.minutes(3)))
struct NeighbourhoodRebuildTests {
    private static let users = ["ann", "bob", "cara", "dan"]
    private static let neighbourhoods: [String?] = ["1012AB", "3011CD", nil]
    private static let reports = (0..<12).map { "r\($0)" }

    /// Every answer the neighbourhood queries give about the fixture's users and reports, from
    /// every neighbourhood's point of view, read in small pages so cursors are covered too.
    private struct Snapshot: Equatable {
        var lists: [[ReportView]] = []
        var details: [ReportDetail?] = []
        var notifications: [[NotificationItem]] = []
        var maps: [[ReportPin]] = []
    }

    private func pages<Item>(_ read: (String?) throws -> ItemPage<Item>) throws -> [Item] {
        var page = try read(nil)
        var items = page.items
        while let next = page.next {
            page = try read(next)
            items += page.items
        }
        return items
    }

    private func snapshot(_ q: NeighbourhoodQueries<LMDBEventStore>) throws -> Snapshot {
        var snapshot = Snapshot()
        for user in Self.users {
            snapshot.lists.append(try pages { try q.reports(by: user, limit: 3, cursor: $0) })
            for neighbourhood in Self.neighbourhoods {
                snapshot.lists.append(try pages { try q.followedReports(of: user, neighbourhood: neighbourhood, limit: 2, cursor: $0) })
                snapshot.notifications.append(try pages { try q.notifications(of: user, neighbourhood: neighbourhood, limit: 2, cursor: $0) })
                for report in Self.reports { snapshot.details.append(try q.report(id: report, viewer: user, neighbourhood: neighbourhood)) }
                guard let neighbourhood else { continue }
                for category in [nil] + ReportCategory.allCases {
                    snapshot.lists.append(try pages { try q.reports(in: neighbourhood, category: category, viewer: user, limit: 2, cursor: $0) })
                }
            }
        }
        for neighbourhood in Self.neighbourhoods.compactMap({ $0 }) {
            snapshot.maps.append(try q.map(of: neighbourhood, within: nil))
            snapshot.maps.append(try q.map(of: neighbourhood, within: MapBounds(parsing: "4,52,5,53")))
        }
        return snapshot
    }

    /// Two neighbourhoods' worth of reports in every category, follows, unfollows, replies,
    /// a move and deletions.
    private func liveALittle(_ fixture: NeighbourhoodFixture) async throws {
        let start = NeighbourhoodFixture.start
        for (index, report) in Self.reports.enumerated() {
            let user = Self.users[index % Self.users.count]
            let neighbourhood = index % 3 == 2 ? "3011CD" : "1012AB"
            let category = ReportCategory.allCases[index % ReportCategory.allCases.count]
            try await fixture.post(report, by: user, in: neighbourhood, category: category,
                                   latitude: 52 + Double(index) / 10, longitude: 4 + Double(index) / 7, at: start + Double(index) * 60)
        }
        for (index, report) in Self.reports.enumerated() where index % 3 != 2 {
            for user in Self.users where user != Self.users[index % Self.users.count] && (index + user.count) % 2 == 0 {
                try await fixture.follow(report, by: user)
            }
            for step in 0..<(index % 4) {
                try await fixture.reply(report, "\(report)-\(step)", by: Self.users[(index + step + 1) % Self.users.count],
                                        at: start + 3_600 + Double(index * 10 + step))
            }
        }
        try await fixture.unfollow("r0", by: "ann")
        try await fixture.reply("r2", "r2-x", by: "cara", in: "3011CD")
        try await fixture.follow("r5", by: "dan", in: "3011CD")
        try await fixture.delete("r3", by: "dan")
        try await fixture.delete("r5", by: "bob")
        try await fixture.reply("r7", "r7-late", by: "ann")
    }

    @Test func aRebuildAnswersExactlyAsTheLiveReadModel() async throws {
        let fixture = try await NeighbourhoodFixture()
        defer { fixture.close() }
        try await liveALittle(fixture)
        let live = try snapshot(fixture.queries)
        #expect(live.details.compactMap { $0 }.count > 0 && live.notifications.joined().count > 0)
        #expect(!live.details.contains { $0?.view.report.reportId == "r3" })

        for projection in NeighbourhoodProjections.all { try await fixture.engine.rebuild(projection.name) }
        let status = try await fixture.engine.status()
        #expect(status.allSatisfy { $0.generation == 1 && $0.lag == 0 })
        #expect(try snapshot(fixture.queries) == live)
    }
}
