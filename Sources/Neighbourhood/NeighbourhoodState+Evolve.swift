extension NeighbourhoodState {
    /// The state after `event`. Total: events are facts already in the log, so an event about a
    /// report this state has not seen is ignored instead of refused.
    mutating func apply(_ event: NeighbourhoodEvent) {
        switch event {
        case .reportPosted(let p):
            reports[p.reportId] = Report(reportId: p.reportId, neighbourhood: p.neighbourhood, authorId: p.authorId)
        case .reportDeleted(let p):
            reports[p.reportId]?.isDeleted = true
        case .replyPosted(let p):
            reports[p.reportId]?.replyIds.insert(p.replyId)
        case .reportFollowed(let p):
            reports[p.reportId]?.followers.insert(p.userId)
        case .reportUnfollowed(let p):
            reports[p.reportId]?.followers.remove(p.userId)
        }
    }
}
