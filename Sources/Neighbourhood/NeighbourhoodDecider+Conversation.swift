import EventSourcing
import Foundation

extension NeighbourhoodDecider {
    static func postReply(
        _ reportId: String, replyId: String, message rawMessage: String, displayName: String,
        actor: String, neighbourhood: String?, now: Date, state: NeighbourhoodState
    ) throws(NeighbourhoodError) -> [NeighbourhoodEvent] {
        let report = try visibleReport(reportId, actor: actor, neighbourhood: neighbourhood, in: state)
        var checks = FieldChecks()
        let message = checks.text(rawMessage, in: NeighbourhoodLimits.replyCharacters, field: "message", kind: .multiLine)
        try checks.check()
        guard !report.replyIds.contains(replyId) else { throw .idTaken }
        guard report.replyIds.count < NeighbourhoodLimits.repliesPerReportMax else { throw .limitReached(.replies) }
        return [.replyPosted(.init(
            reportId: reportId, neighbourhood: report.neighbourhood, replyId: replyId, authorId: actor,
            authorDisplayName: displayName, message: message, postedAt: now))]
    }

    /// Idempotent: following a report one follows already changes nothing, so a client may
    /// send `PUT …/follow` whenever it wants the report followed.
    static func followReport(_ reportId: String, actor: String, neighbourhood: String?, state: NeighbourhoodState)
        throws(NeighbourhoodError) -> [NeighbourhoodEvent]
    {
        let report = try visibleReport(reportId, actor: actor, neighbourhood: neighbourhood, in: state)
        guard !report.followers.contains(actor) else { return [] }
        guard report.followers.count < NeighbourhoodLimits.followersPerReportMax else { throw .limitReached(.followers) }
        return [.reportFollowed(.init(reportId: reportId, neighbourhood: report.neighbourhood, userId: actor))]
    }

    /// Idempotent like `followReport`.
    static func unfollowReport(_ reportId: String, actor: String, neighbourhood: String?, state: NeighbourhoodState)
        throws(NeighbourhoodError) -> [NeighbourhoodEvent]
    {
        let report = try visibleReport(reportId, actor: actor, neighbourhood: neighbourhood, in: state)
        guard report.followers.contains(actor) else { return [] }
        return [.reportUnfollowed(.init(reportId: reportId, neighbourhood: report.neighbourhood, userId: actor))]
    }
}
