import EventLog
import EventSourcing
import Foundation
import Neighbourhood
import Testing
@testable import Projections

/// The neighbourhood read models fed by the real neighbourhood decider.
typealias NeighbourhoodFixture = DeciderFixture<NeighbourhoodDecider>

extension DeciderFixture where D == NeighbourhoodDecider {
    convenience init() async throws {
        try await self.init(projections: NeighbourhoodProjections.all)
    }

    var queries: NeighbourhoodQueries<LMDBEventStore> { NeighbourhoodQueries(engine: engine) }
}

/// Commands with readable defaults, so tests say only what matters to them. Users are named,
/// their display name is the name capitalised.
extension NeighbourhoodFixture {
    @discardableResult
    func post(
        _ reportId: String, by userId: String, in neighbourhood: String = "1012AB", category: ReportCategory = .event,
        latitude: Double = 52.37, longitude: Double = 4.89, at now: Date = start
    ) async throws -> UInt64 {
        try await run(.postReport(.init(
            reportId: reportId, neighbourhood: neighbourhood, displayName: userId.capitalized, title: "Title of \(reportId)",
            description: "About \(reportId)", category: category.rawValue, latitude: latitude, longitude: longitude)), by: userId, at: now)
    }

    @discardableResult
    func reply(_ reportId: String, _ replyId: String, by userId: String, in neighbourhood: String = "1012AB", at now: Date = start) async throws -> UInt64 {
        try await run(.postReply(reportId: reportId, replyId: replyId, message: "Reply \(replyId)", displayName: userId.capitalized,
                                 neighbourhood: neighbourhood), by: userId, at: now)
    }

    func follow(_ reportId: String, by userId: String, in neighbourhood: String = "1012AB") async throws {
        try await run(.followReport(reportId: reportId, neighbourhood: neighbourhood), by: userId)
    }

    func unfollow(_ reportId: String, by userId: String, in neighbourhood: String = "1012AB") async throws {
        try await run(.unfollowReport(reportId: reportId, neighbourhood: neighbourhood), by: userId)
    }

    func delete(_ reportId: String, by userId: String) async throws {
        try await run(.deleteReport(reportId: reportId, neighbourhood: nil), by: userId)
    }
}

extension ItemPage where Item == ReportView {
    /// The ids on the page, in order.
    var ids: [String] { items.map(\.report.reportId) }
}
