import EventLog
import Foundation
import Neighbourhood

/// What the neighbourhood routes ask of the read models. Per-reader fields (`following`) and
/// who may see what (`ReportVisibility`, the decider's rule) are worked out per request, so the
/// stored tables are the same for every reader. The tables keep personal data sealed; every
/// answer has it opened (`NeighbourhoodQueries+Opening`). Queries read the served copy as it is; a
/// command's handler waits with `ProjectionEngine.waitUntilProjected` before answering, which is
/// what makes the next query read its own writes.
public struct NeighbourhoodQueries<Store: EventStore>: Sendable {
    /// The engine the neighbourhood projections are registered with.
    public let engine: ProjectionEngine<Store>

    /// Pins on the map at most: the newest reports of the neighbourhood within the box.
    public static var mapPinsMax: Int { 500 }
    /// Entries one request reads at most while skipping ones the reader may not see (a follow
    /// list after a move, the map outside its box). A page that stops here is shorter than
    /// asked but still has a `next`, so every request is bounded and no item is lost.
    public static var entriesScannedPerRequestMax: Int { 5_000 }

    /// Queries over `engine`, which must run `NeighbourhoodProjections.all`: reading an
    /// unregistered projection would silently answer from empty tables.
    public init(engine: ProjectionEngine<Store>) {
        let registered = Set(engine.projections.map(\.name))
        precondition(NeighbourhoodProjections.all.allSatisfy { registered.contains($0.name) }, "neighbourhood projections are registered")
        self.engine = engine
    }

    /// A page of `neighbourhood`'s reports, newest first, of one `category` or all, as `viewer`
    /// sees them.
    public func reports(
        in neighbourhood: String, category: ReportCategory?, viewer: String, limit: Int?, cursor: String?
    ) throws(ListQueryError) -> ItemPage<ReportView> {
        let table = NeighbourhoodReportsProjection.self
        if let category {
            return try page(String.self, in: table.categoryReports, prefix: NeighbourhoodKeys.categoryPrefix(neighbourhood, category),
                            limit: limit, cursor: cursor) { model, _, reportId in try view(reportId, for: viewer, model) }
        }
        return try page(ReportPin.self, in: table.neighbourhoodReports, prefix: NeighbourhoodKeys.neighbourhoodPrefix(neighbourhood),
                        limit: limit, cursor: cursor) { model, _, pin in try view(pin.reportId, for: viewer, model) }
    }

    /// A page of the reports `author` posted, newest first, wherever they were posted.
    public func reports(by author: String, limit: Int?, cursor: String?) throws(ListQueryError) -> ItemPage<ReportView> {
        try page(String.self, in: NeighbourhoodReportsProjection.authorReports, prefix: NeighbourhoodKeys.userPrefix(author),
                 limit: limit, cursor: cursor) { model, _, reportId in try view(reportId, for: author, model) }
    }

    /// A page of the reports `user` follows and may see now (living in `neighbourhood`),
    /// newest report first. Follows of a former neighbourhood's reports are kept, not shown:
    /// moving back shows them again, as the log still says they are followed.
    public func followedReports(
        of user: String, neighbourhood: String?, limit: Int?, cursor: String?
    ) throws(ListQueryError) -> ItemPage<ReportView> {
        try page(String.self, in: NeighbourhoodReportsProjection.followedReports, prefix: NeighbourhoodKeys.userPrefix(user),
                 limit: limit, cursor: cursor) { model, _, reportId in
            try view(reportId, for: user, model, if: { Self.canSee($0, user, neighbourhood) })
        }
    }

    /// A page of `user`'s notifications, newest first, about reports they may see now: each made
    /// from its report and its reply, which a notification's key and value find.
    public func notifications(
        of user: String, neighbourhood: String?, limit: Int?, cursor: String?
    ) throws(ListQueryError) -> ItemPage<NotificationItem> {
        let prefix = NeighbourhoodKeys.userPrefix(user)
        return try page(String.self, in: NeighbourhoodReportsProjection.notifications, prefix: prefix,
                        limit: limit, cursor: cursor) { model, key, reportId in
            guard let report = try storedReport(reportId, model), Self.canSee(report, user, neighbourhood) else { return nil }
            // A notification is keyed like its reply, with the recipient's prefix for the report's.
            let replyKey = NeighbourhoodKeys.reportPrefix(reportId) + key.dropFirst(prefix.count)
            guard let reply = try model.value(StoredReply.self, at: replyKey, in: NeighbourhoodReportsProjection.replies) else {
                throw ReadModelError.undecodable(table: NeighbourhoodReportsProjection.notifications, key: key, reason: "its reply is not stored")
            }
            return NotificationItem(
                kind: "reply", reportId: reportId, reportTitle: try openedTitle(report.title, of: report.author.userId),
                replyId: reply.view.replyId, from: try opened(reply.view.author), createdAt: reply.view.createdAt)
        }
    }

    /// Report `reportId` with its replies as `viewer` (living in `neighbourhood`) sees it; nil
    /// when it is unknown, deleted, or not the viewer's to see.
    public func report(id reportId: String, viewer: String, neighbourhood: String?) throws(ReadModelError) -> ReportDetail? {
        try engine.read(NeighbourhoodProjections.reports) { model -> ReportDetail? in
            guard let view = try view(reportId, for: viewer, model, if: { Self.canSee($0, viewer, neighbourhood) }) else { return nil }
            // The decider bounds replies per report, so reading them all is bounded too; the
            // keys invert positions, so reading backwards is oldest first.
            let replies = try model.entries(
                StoredReply.self, in: NeighbourhoodReportsProjection.replies,
                prefix: NeighbourhoodKeys.reportPrefix(reportId), reverse: true, limit: NeighbourhoodLimits.repliesPerReportMax)
            return ReportDetail(view: view, replies: try replies.map { try opened($0.value.view) })
        }
    }

    /// The newest `mapPinsMax` reports of `neighbourhood` that lie within `bounds` (anywhere
    /// when nil), newest first.
    public func map(of neighbourhood: String, within bounds: MapBounds?) throws(ListQueryError) -> [ReportPin] {
        try page(ReportPin.self, in: NeighbourhoodReportsProjection.neighbourhoodReports,
                 prefix: NeighbourhoodKeys.neighbourhoodPrefix(neighbourhood), limit: Self.mapPinsMax, cursor: nil) { _, _, pin in
            guard bounds?.contains(latitude: pin.latitude, longitude: pin.longitude) ?? true else { return nil }
            var opened = pin
            opened.title = try openedTitle(pin.title, of: pin.authorId)
            return opened
        }.items
    }

    private static func canSee(_ report: StoredReport, _ user: String, _ neighbourhood: String?) -> Bool {
        ReportVisibility.canSee(reportNeighbourhood: report.neighbourhood, authorId: report.author.userId, userId: user, neighbourhood: neighbourhood)
    }

    private func storedReport(_ reportId: String, _ model: ReadModelReader) throws -> StoredReport? {
        try model.value(StoredReport.self, at: NeighbourhoodKeys.report(reportId), in: NeighbourhoodReportsProjection.reports)
    }

    /// The report, opened, with its counts and whether `user` follows it; nil when it is not
    /// stored (deleted) or `visible` refuses it, which is asked before anything is opened.
    private func view(
        _ reportId: String, for user: String, _ model: ReadModelReader, if visible: (StoredReport) -> Bool = { _ in true }
    ) throws -> ReportView? {
        let key = NeighbourhoodKeys.report(reportId)
        guard let report = try storedReport(reportId, model), visible(report),
              let activity = try model.value(ReportActivity.self, at: key, in: NeighbourhoodReportsProjection.activity)
        else { return nil }
        return ReportView(
            report: try opened(report), replyCount: activity.replyCount, followerCount: activity.followers.count,
            following: activity.followers.contains(user))
    }
}
