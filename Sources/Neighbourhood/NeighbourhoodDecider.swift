import EventSourcing

/// The neighbourhood rules: who may post, reply to, follow and delete reports.
public enum NeighbourhoodDecider: Decider {
    /// What a neighbour asks.
    public typealias Command = NeighbourhoodCommand
    /// What happened.
    public typealias Event = NeighbourhoodEvent
    /// The report the command is about.
    public typealias State = NeighbourhoodState
    /// Why a command is refused.
    public typealias Failure = NeighbourhoodError

    /// No reports.
    public static let initialState = NeighbourhoodState()

    /// The report's events: every rule is about one report (its followers, replies, author and
    /// whether it was deleted), so two commands on different reports never conflict.
    public static func boundary(of command: NeighbourhoodCommand) -> Boundary {
        .tag(NeighbourhoodEvent.reportTag(command.reportId))
    }

    /// The state changed in place by `event`.
    public static func evolve(_ state: inout NeighbourhoodState, _ event: NeighbourhoodEvent) {
        state.apply(event)
    }

    /// The events `command` produces, none when it changes nothing, or the refusal.
    public static func decide(
        _ command: NeighbourhoodCommand, state: NeighbourhoodState, metadata: CommandMetadata
    ) throws(NeighbourhoodError) -> [NeighbourhoodEvent] {
        let actor = metadata.actor
        switch command {
        case let .postReport(post):
            return try postReport(post, actor: actor, now: metadata.now, state: state)
        case let .deleteReport(reportId, neighbourhood):
            return try deleteReport(reportId, actor: actor, neighbourhood: neighbourhood, state: state)
        case let .postReply(reportId, replyId, message, displayName, neighbourhood):
            return try postReply(reportId, replyId: replyId, message: message, displayName: displayName,
                                 actor: actor, neighbourhood: neighbourhood, now: metadata.now, state: state)
        case let .followReport(reportId, neighbourhood):
            return try followReport(reportId, actor: actor, neighbourhood: neighbourhood, state: state)
        case let .unfollowReport(reportId, neighbourhood):
            return try unfollowReport(reportId, actor: actor, neighbourhood: neighbourhood, state: state)
        }
    }

    /// The live report `reportId` if `actor` may see it (`ReportVisibility`): every command but
    /// posting starts here.
    ///
    /// Without a postcode the answer is `noNeighbourhood` for any report but the actor's own,
    /// known or not, so that it says nothing about which ids exist; with one, an unknown,
    /// deleted or foreign report is the same `reportNotFound`.
    static func visibleReport(
        _ reportId: String, actor: String, neighbourhood: String?, in state: NeighbourhoodState
    ) throws(NeighbourhoodError) -> NeighbourhoodState.Report {
        let report = state.reports[reportId].flatMap { $0.isDeleted ? nil : $0 }
        if let report, report.authorId == actor { return report }
        guard let neighbourhood else { throw .noNeighbourhood }
        guard let report, ReportVisibility.canSee(
            reportNeighbourhood: report.neighbourhood, authorId: report.authorId, userId: actor, neighbourhood: neighbourhood)
        else { throw .reportNotFound }
        return report
    }
}
