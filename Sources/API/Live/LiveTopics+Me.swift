import Accounts
import EventLog
import Neighbourhood
import Quiz

/// `me`: what concerns the caller alone: their account's events (profile, e-mail, sessions,
/// avatar), a quiz game someone started with them, and a reply on a report they follow (the
/// notifications of `GET /v1/me/notifications`).
struct MeTopic: LiveTopicKind {
    let name = "me"
    let takesID = false
    let recheckedOn: Set<String> = []
    /// The key every `me` stream shares for replies: who follows a report is in the read model,
    /// not in the reply's tags, so each stream's grant admits only the replies it follows.
    static let repliesKey = "me:replies"

    func keys(of event: RecordedEvent) -> [String] {
        if LiveTopics.isOf(event, domain: AccountEvent.domain) || event.type == QuizEvent.GameCreated.typeName {
            return LiveTopics.tagValues(event, prefix: "user:").map(Self.key)
        }
        return event.type == NeighbourhoodEvent.ReplyPosted.typeName ? [Self.repliesKey] : []
    }

    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let userId = caller.userId
        return grant(for: userId) { Self.isNotified(userId, of: $0, api) }
    }

    /// The grant of `me` to `userId`: their own events (by key), and the replies `notified`
    /// says notify them.
    func grant(for userId: String, notified: @escaping @Sendable (RecordedEvent) -> Bool) -> LiveGrant {
        LiveGrant(topic: name, kind: name, keys: [Self.key(userId), Self.repliesKey], recheck: {}) { event in
            event.type != NeighbourhoodEvent.ReplyPosted.typeName || notified(event)
        }
    }

    /// `user:<userId>` of a user's own events, as the `me:` key.
    static func key(_ userId: String) -> String { "me:\(userId)" }

    /// Whether the reply `event` notifies `userId`: they follow its report, may see it, and did
    /// not write the reply (the read model's own rule for notifications).
    private static func isNotified(_ userId: String, of event: RecordedEvent, _ api: LogbookAPI) -> Bool {
        guard !LiveTopics.tagValues(event, prefix: "user:").contains(userId),
              let reportId = LiveTopics.tagValues(event, prefix: "report:").first,
              let profile = try? api.runtime.accounts.profile(userId),
              let report = try? api.runtime.neighbourhood.report(id: reportId, viewer: userId, neighbourhood: profile.postcode)
        else { return false }
        return report.view.following
    }
}
