import EventLog

/// A topic of one app's group with members (`house:<id>`, `game:<id>`, `group:<id>`): its events
/// are those of the app's domain tagged `<name>:<id>`, and who may watch one is the app's own
/// access check, the one its query routes make. Every member may read all of it, so every event
/// reaches every watcher, unless the kind's `admits` keeps one to some of them.
///
/// The check is made at subscribe time and again on the `recheckedOn` events; it throws the
/// routes' refusal (404 unknown, 403 not a member), so a refused subscription answers as a
/// query would, and a recheck tells a refusal from a read model that cannot answer now.
struct MemberTopic: LiveTopicKind {
    let name: String
    let takesID = true
    let recheckedOn: Set<String>
    /// The events' domain (`household`): a tag of another domain's event never files it here.
    let domain: String
    /// Refuses `userId` unless they may watch the group `id`, as the app's routes refuse.
    let check: @Sendable (_ id: String, _ userId: String, _ api: LogbookAPI) throws -> Void
    /// Whether an event of the topic may reach the watcher `userId`, for a kind with an event
    /// only some members may read; nil when every member reads all of them. The hub asks it for
    /// every event and watcher: it reads the event's record, never a read model.
    let admits: (@Sendable (_ event: RecordedEvent, _ userId: String) -> Bool)?

    init(
        name: String, domain: String, recheckedOn: Set<String> = [],
        admits: (@Sendable (_ event: RecordedEvent, _ userId: String) -> Bool)? = nil,
        check: @escaping @Sendable (_ id: String, _ userId: String, _ api: LogbookAPI) throws -> Void
    ) {
        self.name = name
        self.domain = domain
        self.recheckedOn = recheckedOn
        self.admits = admits
        self.check = check
    }

    /// `<name>:<id>`: the tag the app writes on the group's events, used as the key unchanged.
    func key(_ id: String) -> String { "\(name):\(id)" }

    func keys(of event: RecordedEvent) -> [String] {
        guard LiveTopics.isOf(event, domain: domain) else { return [] }
        return LiveTopics.tagValues(event, prefix: "\(name):").map(key)
    }

    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let id = id ?? "", userId = caller.userId, check = check
        try check(id, userId, api)
        return grant(id, for: userId) { try check(id, userId, api) }
    }

    /// The grant of the group `id` to `userId`, who may watch it; `recheck` checks that again.
    func grant(_ id: String, for userId: String, recheck: @escaping @Sendable () throws -> Void) -> LiveGrant {
        var admitted: (@Sendable (RecordedEvent) -> Bool)?
        if let admits { admitted = { admits($0, userId) } }
        return LiveGrant(topic: key(id), kind: name, keys: [key(id)], recheck: recheck, admits: admitted)
    }
}
