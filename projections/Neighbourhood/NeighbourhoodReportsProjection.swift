import EventLog
import EventSourcing
import Neighbourhood

/// Every live report (`reports`) with the lists that show it, its thread, its followers and the
/// notifications its replies caused.
///
/// One projection with many tables rather than many projections, because a deletion must
/// leave every list, follow list and notification in the same transaction, and because a
/// reply's notifications need the followers as they are at that reply. Lists hold ids (or
/// immutable pins), never copies of counts, so a reply or a follow rewrites one small row.
public struct NeighbourhoodReportsProjection: Projection {
    /// The stable name.
    public var name: String { "neighbourhood.reports" }
    /// Version 6: personal data as the log stores it (sealed): a report's title, description and
    /// author's name, a reply's author's name and message, opened by `NeighbourhoodQueries` (ADR
    /// 0009); a notification holds its report's id and finds the reply by its key, instead of a
    /// copy of the title and the replier; `activity` holds no title. Version 5: the followers
    /// live in the report's `activity` row, and the `followers` table is gone (a reply's
    /// fan-out read them with a prefix scan, a follow wrote them with an insert); a reply's row
    /// holds whom it notified, and the `replyRecipients` table is gone (a put per reply).
    /// Version 4: one `replyRecipients` row per reply instead of a `reportNotifications` entry
    /// per notification, a third fewer writes for a reply to three followers. Version 3: values
    /// in the binary `ReadModelValue` form instead of JSON.
    /// Version 2 moved the counts from the report's row to `activity` (version 1 rewrote the
    /// whole row, description included, on every follow and reply).
    public var version: Int { 6 }
    /// Only its domain's events reach it, with nothing opened.
    public var reads: [any DecodableDomainEvent.Type]? { [EventAsStored<NeighbourhoodEvent>.self] }
    /// `reports`: reportId → `StoredReport`, as posted;
    /// `activity`: reportId → `ReportActivity` (the reply count and the followers: what follows
    /// and replies need);
    /// `neighbourhoodReports`: `<neighbourhood>/<inverted position>` → `ReportPin` (list and map);
    /// `categoryReports`: `<neighbourhood>/<category>/<inverted position>` → reportId;
    /// `authorReports`: `<author>/<inverted position>` → reportId;
    /// `followedReports`: `<user>/<inverted report position>` → reportId (the follow list, in
    /// the order of the reports, so an unfollow finds its key from the report);
    /// `replies`: `<report>/<inverted position>` → `StoredReply` (the reply, and the users it
    /// notified, so a deletion finds the notifications its report caused: `<user>/<inverted
    /// position>` each);
    /// `notifications`: `<user>/<inverted reply position>` → reportId (the reply is then at
    /// `<report>/<inverted reply position>` in `replies`).
    /// The values of `reports`, `neighbourhoodReports` and `replies` hold personal data as the log
    /// stores it (sealed).
    public var tables: [String] {
        [Self.reports, Self.activity, Self.neighbourhoodReports, Self.categoryReports, Self.authorReports,
         Self.followedReports, Self.replies, Self.notifications]
    }
    /// Every table: `apply` puts and removes entries by key. Only a deletion scans (`replies`,
    /// one report in twenty in the bench's log), which stores what the table holds first. Reads
    /// by key find a batch's last write: `activity`, changed by every follow and reply, is kept
    /// decoded through the batch and stored once, not read back, decoded and encoded ten times.
    public var heldTables: Set<String> { Set(tables) }

    static let reports = "reports"
    static let activity = "activity"
    static let neighbourhoodReports = "neighbourhoodReports"
    static let categoryReports = "categoryReports"
    static let authorReports = "authorReports"
    static let followedReports = "followedReports"
    static let replies = "replies"
    static let notifications = "notifications"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds a neighbourhood event into the tables; ignores other events. Events about a report
    /// not stored (the decider emits none after a deletion) change nothing.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard let neighbourhood = try event.decoded(as: EventAsStored<NeighbourhoodEvent>.self)?.event else { return }
        switch neighbourhood {
        case .reportPosted(let p):
            try post(p, at: event.position, model)
        case .reportDeleted(let p):
            let key = NeighbourhoodKeys.report(p.reportId)
            guard let activity = try model.value(ReportActivity.self, at: key, in: Self.activity),
                  let report = try model.value(StoredReport.self, at: key, in: Self.reports) else { return }
            try delete(report, followers: activity.followers, model)
        case .reportFollowed(let p):
            try updateActivity(of: p.reportId, model) { activity in
                guard !activity.followers.contains(p.userId) else { return }
                activity.followers.append(p.userId)
                try model.put(p.reportId, at: followedKey(activity.position, p.userId), in: Self.followedReports)
            }
        case .reportUnfollowed(let p):
            try updateActivity(of: p.reportId, model) { activity in
                guard let index = activity.followers.firstIndex(of: p.userId) else { return }
                activity.followers.remove(at: index)
                try model.delete(followedKey(activity.position, p.userId), in: Self.followedReports)
            }
        case .replyPosted(let p):
            try updateActivity(of: p.reportId, model) { activity in
                try reply(p, to: activity, at: event.position, model)
                activity.replyCount += 1
            }
        }
    }

    /// Changes a report's activity, kept decoded through the batch: a report's follows and
    /// replies come in runs.
    private func updateActivity(of reportId: String, _ model: ReadModelWriter, _ change: (inout ReportActivity) throws -> Void) throws {
        try model.update(ReportActivity.self, at: NeighbourhoodKeys.report(reportId), in: Self.activity, change)
    }

    private func post(_ p: NeighbourhoodEvent.ReportPosted, at position: UInt64, _ model: ReadModelWriter) throws {
        let report = StoredReport(
            reportId: p.reportId, neighbourhood: p.neighbourhood, title: p.title, description: p.description,
            category: p.category, latitude: p.latitude, longitude: p.longitude, createdAt: p.postedAt,
            author: NeighbourView(userId: p.authorId, displayName: p.authorDisplayName), position: position)
        try model.put(report, at: NeighbourhoodKeys.report(p.reportId), in: Self.reports)
        let activity = ReportActivity(position: position, replyCount: 0, followers: [])
        try model.put(activity, at: NeighbourhoodKeys.report(p.reportId), in: Self.activity)
        for (table, key) in listKeys(of: report) {
            if table == Self.neighbourhoodReports {
                let pin = ReportPin(
                    reportId: p.reportId, authorId: p.authorId, title: p.title, category: p.category, latitude: p.latitude, longitude: p.longitude)
                try model.put(pin, at: key, in: table)
            } else {
                try model.put(p.reportId, at: key, in: table)
            }
        }
    }

    /// The report's entries in the neighbourhood, category and author lists.
    private func listKeys(of report: StoredReport) -> [(table: String, key: String)] {
        [(Self.neighbourhoodReports, ReadModelKeys.newestFirst(NeighbourhoodKeys.neighbourhoodPrefix(report.neighbourhood), report.position)),
         (Self.categoryReports, ReadModelKeys.newestFirst(NeighbourhoodKeys.categoryPrefix(report.neighbourhood, report.category), report.position)),
         (Self.authorReports, ReadModelKeys.newestFirst(NeighbourhoodKeys.userPrefix(report.author.userId), report.position))]
    }

    /// The report's key in `userId`'s follow list, from the report's position.
    private func followedKey(_ reportPosition: UInt64, _ userId: String) -> String {
        ReadModelKeys.newestFirst(NeighbourhoodKeys.userPrefix(userId), reportPosition)
    }

    /// Notifies every follower but the reply's author, then stores the reply with whom it
    /// notified. The decider bounds followers per report, so the fan-out is bounded too; a
    /// notification is the report's id, which with the reply's position in its key finds the
    /// reply (and the report's title) when it is read: a few bytes per follower, not a copy.
    private func reply(_ p: NeighbourhoodEvent.ReplyPosted, to activity: ReportActivity, at position: UInt64, _ model: ReadModelWriter) throws {
        var recipients: [String] = []
        for follower in activity.followers where follower != p.authorId {
            let key = ReadModelKeys.newestFirst(NeighbourhoodKeys.userPrefix(follower), position)
            try model.put(p.reportId, at: key, in: Self.notifications)
            recipients.append(follower)
        }
        let from = NeighbourView(userId: p.authorId, displayName: p.authorDisplayName)
        let reply = ReplyView(replyId: p.replyId, author: from, message: p.message, createdAt: p.postedAt)
        let replyKey = ReadModelKeys.newestFirst(NeighbourhoodKeys.reportPrefix(p.reportId), position)
        try model.put(StoredReply(view: reply, recipients: recipients), at: replyKey, in: Self.replies)
    }

    /// Removes the report from every table: lists, follow lists, its thread, and the
    /// notifications it caused, so nothing points at a report that answers 404.
    private func delete(_ report: StoredReport, followers: [String], _ model: ReadModelWriter) throws {
        try model.delete(NeighbourhoodKeys.report(report.reportId), in: Self.reports)
        try model.delete(NeighbourhoodKeys.report(report.reportId), in: Self.activity)
        for (table, key) in listKeys(of: report) { try model.delete(key, in: table) }
        let reportPrefix = NeighbourhoodKeys.reportPrefix(report.reportId)
        for follower in followers { try model.delete(followedKey(report.position, follower), in: Self.followedReports) }
        for (replyKey, reply) in try model.entries(StoredReply.self, in: Self.replies, prefix: reportPrefix) {
            // A notification is keyed like its reply, with the recipient's prefix for the report's.
            let invertedPosition = replyKey.dropFirst(reportPrefix.count)
            for recipient in reply.recipients {
                try model.delete(NeighbourhoodKeys.userPrefix(recipient) + invertedPosition, in: Self.notifications)
            }
            try model.delete(replyKey, in: Self.replies)
        }
    }
}
