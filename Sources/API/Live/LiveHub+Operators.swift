import EventLog
import LogInspection

/// The operators' live tail (`GET /v1/admin/events/live`) on the users' hub: one more kind of
/// subscription, so it shares the hub's one reader of the log, its bounded buffers, keep-alives,
/// `Last-Event-ID` resume and shutdown instead of being a second machine beside it.
///
/// Every event is filed under `everyEventKey` as well as its topics' keys; only operator streams
/// hold a grant of that key, and their grant admits what their `EventFilter` matches. No user
/// topic is ever parsed into it (it is not in `LiveTopics.all`).
enum OperatorTail {
    /// The key every event is filed under; no topic's key has this form (`house:<id>`, `me:…`).
    static let everyEventKey = "*"
    /// The hub's user of operator streams. Not a user id (those are UUIDs), so no account event's
    /// `user:` tag names it (no session recheck ends it) and the streams-per-user limit bounds the
    /// operators' streams together.
    static let userId = "operator"
    /// The grant's topic and kind; never shown (an operator frame carries the event itself).
    static let kind = "operator"

    /// The one grant of an operator stream: every event `filter` matches; never revoked (the
    /// operator token does not change while the server runs).
    static func grant(_ filter: EventFilter) -> LiveGrant {
        LiveGrant(topic: kind, kind: kind, keys: [everyEventKey], recheck: {}) { filter.matches($0) }
    }
}

extension LiveHub {
    /// Registers an operator stream of the events `filter` matches, resuming after `lastEventID`
    /// when given, else from the position the read models include now; as `subscribe` (429
    /// `too_many_streams` over the per-user limit, 503 while the server starts or stops).
    func subscribeOperator(
        filter: EventFilter, lastEventID: UInt64?
    ) throws -> (LiveSubscription, catchUp: ClosedRange<UInt64>?) {
        try subscribe(userId: OperatorTail.userId, grants: [OperatorTail.grant(filter)], lastEventID: lastEventID, sessionActive: { true })
    }
}
