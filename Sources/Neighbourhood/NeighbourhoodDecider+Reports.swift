import EventSourcing
import Foundation

extension NeighbourhoodDecider {
    /// Emits the report and its author's follow: following is a fact of the log like any other
    /// follow, so the author may unfollow their own report later and every read model counts
    /// followers one way.
    static func postReport(
        _ post: NeighbourhoodCommand.PostReport, actor: String, now: Date, state: NeighbourhoodState
    ) throws(NeighbourhoodError) -> [NeighbourhoodEvent] {
        guard let neighbourhood = post.neighbourhood else { throw .noNeighbourhood }
        var checks = FieldChecks()
        let title = checks.text(post.title, in: NeighbourhoodLimits.titleCharacters, field: "title")
        let description = checks.text(
            post.description, in: NeighbourhoodLimits.descriptionCharacters, field: "description", kind: .multiLine)
        let category = checks.category(post.category)
        checks.degrees(post.latitude, in: NeighbourhoodLimits.latitudeDegrees, field: "location.latitude")
        checks.degrees(post.longitude, in: NeighbourhoodLimits.longitudeDegrees, field: "location.longitude")
        try checks.check()
        guard let category else { preconditionFailure("check() throws for an unknown category") }
        guard state.reports[post.reportId] == nil else { throw .idTaken }
        let posted = NeighbourhoodEvent.ReportPosted(
            reportId: post.reportId, neighbourhood: neighbourhood, authorId: actor, authorDisplayName: post.displayName,
            title: title, description: description, category: category,
            latitude: post.latitude, longitude: post.longitude, postedAt: now)
        return [.reportPosted(posted),
                .reportFollowed(.init(reportId: post.reportId, neighbourhood: neighbourhood, userId: actor))]
    }

    static func deleteReport(_ reportId: String, actor: String, neighbourhood: String?, state: NeighbourhoodState)
        throws(NeighbourhoodError) -> [NeighbourhoodEvent]
    {
        let report = try visibleReport(reportId, actor: actor, neighbourhood: neighbourhood, in: state)
        guard report.authorId == actor else { throw .notTheAuthor }
        return [.reportDeleted(.init(reportId: reportId, neighbourhood: report.neighbourhood, authorId: actor))]
    }
}
