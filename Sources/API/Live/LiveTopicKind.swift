import EventLog

/// One app's live topics: which of its events concern which topic, and who may watch one.
///
/// An app adds its topics in one place: a value of this protocol in `LiveTopics.all`. The hub
/// never decodes an event: every mapping reads the record's type and tags, which each domain
/// already writes for its boundaries and reads (`house:<id>`, `game:<id>`, `user:<id>`…).
protocol LiveTopicKind: Sendable {
    /// The topic's name, before the colon of `house:<id>`, or the whole of `me`.
    var name: String { get }
    /// Whether the topic names an id (`house:<id>`) or stands alone (`neighbourhood`, `me`).
    var takesID: Bool { get }
    /// Event types that may end someone's right to watch a topic of this kind (a member left,
    /// a postcode changed): on each, the grants of this kind of the streams the event concerns
    /// (by topic, or by a `user:<id>` tag naming their user) are checked again.
    var recheckedOn: Set<String> { get }
    /// The keys of this kind `event` is filed under (`house:<id>`); none when it concerns no
    /// topic of this kind.
    func keys(of event: RecordedEvent) -> [String]
    /// The caller's grant to the topic (`id` is nil for a topic without one), or the problem
    /// refusing it, as the app's own routes answer (404 for an unknown house, 403 not a member).
    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant
}

/// A caller's right to one topic, as checked at subscribe time.
struct LiveGrant: Sendable {
    /// The topic as the client named it: what `data.topic` says.
    let topic: String
    /// The kind's name (`house`), so a recheck finds the grants of the kind that asked for it.
    let kind: String
    /// The keys events of this topic are filed under (`house:<id>`, `me:<userId>`).
    let keys: [String]
    /// The check of the caller's access made again on the kind's `recheckedOn` events: returns
    /// when they may still watch it, throws the app's refusal (or `NoLongerAllowed`) when not.
    let recheck: @Sendable () throws -> Void
    /// For a key many callers share (`me:replies`), whether a given event concerns this caller;
    /// nil when every event filed under `keys` does.
    let admits: (@Sendable (RecordedEvent) -> Bool)?

    init(
        topic: String, kind: String, keys: [String], recheck: @escaping @Sendable () throws -> Void,
        admits: (@Sendable (RecordedEvent) -> Bool)? = nil
    ) {
        self.topic = topic
        self.kind = kind
        self.keys = keys
        self.recheck = recheck
        self.admits = admits
    }

    /// A recheck's refusal that is not a route's problem (a caller who moved elsewhere).
    struct NoLongerAllowed: Error {}

    /// What a recheck found.
    enum Verdict: Equatable {
        case allowed
        /// The app refuses the caller now (a 4xx problem: they left, moved, were removed).
        case refused
        /// The check could not be made (a read model rebuilding, a storage error): neither.
        case undecided
    }

    /// Makes the recheck and tells a refusal from a failure to check.
    func verdict() -> Verdict {
        do {
            try recheck()
            return .allowed
        } catch is NoLongerAllowed {
            return .refused
        } catch let problem as Problem where (400..<500).contains(problem.status) {
            return .refused
        } catch {
            return .undecided
        }
    }

    /// Whether `event`, filed under `eventKeys`, is one this grant delivers.
    func matches(_ event: RecordedEvent, keys eventKeys: [String]) -> Bool {
        guard keys.contains(where: eventKeys.contains) else { return false }
        return admits?(event) ?? true
    }
}

/// The live topics of every app, registered in one list.
enum LiveTopics {
    /// Every topic kind the server offers; an app's topics are one entry here.
    static let all: [any LiveTopicKind] = [
        MemberTopic.house, MemberTopic.game, NeighbourhoodTopic(), MemberTopic.group, OrganisationTopic(), MeTopic(),
    ]

    /// The keys `event` is filed under, over every kind, and the operators' tail's key, which
    /// every event has (`OperatorTail`).
    static func keys(of event: RecordedEvent) -> [String] {
        all.flatMap { $0.keys(of: event) } + [OperatorTail.everyEventKey]
    }

    /// The kinds whose grants `type` makes the hub check again.
    static func kindsRechecked(on type: String) -> [String] {
        all.filter { $0.recheckedOn.contains(type) }.map(\.name)
    }

    /// The values of `event`'s tags that start with `prefix` (`house:` → the house ids).
    static func tagValues(_ event: RecordedEvent, prefix: String) -> [String] {
        event.tags.compactMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
    }

    /// Whether `event` is of `domain` (its type up to the first dot).
    static func isOf(_ event: RecordedEvent, domain: String) -> Bool {
        event.type.hasPrefix(domain) && event.type.dropFirst(domain.count).first == "."
    }
}
