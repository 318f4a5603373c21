/// The topics a stream asks for, as parsed from `?topics=` before anything is authorized.
struct LiveTopicRequest {
    /// The kind of topic.
    let kind: any LiveTopicKind
    /// Its id (`house:<id>`), nil for a topic without one.
    let id: String?

    /// Bytes an id may hold: every id the server makes is a 36-character UUID.
    static let idBytesMax = 64

    /// `topics` parsed: comma-separated `name` or `name:id`, each of `LiveTopics.all`, at most
    /// `LiveLimits.topicsPerStreamMax` distinct ones (a repeat counts once). 400 `invalid_topic`
    /// for anything else, `too_many_topics` over the limit.
    static func parse(_ topics: String) throws -> [LiveTopicRequest] {
        guard topics.utf8.count <= LiveLimits.topicsParameterBytesMax else { throw Problem.tooManyTopics }
        var seen = Set<String>()
        var requests: [LiveTopicRequest] = []
        for item in topics.split(separator: ",", omittingEmptySubsequences: false) {
            let request = try parse(topic: item)
            guard seen.insert(String(item)).inserted else { continue }
            requests.append(request)
        }
        guard !requests.isEmpty else { throw Problem.invalidTopic("name at least one topic") }
        guard requests.count <= LiveLimits.topicsPerStreamMax else { throw Problem.tooManyTopics }
        return requests
    }

    private static func parse(topic: Substring) throws -> LiveTopicRequest {
        let parts = topic.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0]
        guard let kind = LiveTopics.all.first(where: { $0.name == name }) else {
            let names = LiveTopics.all.map { $0.takesID ? "\($0.name):ID" : $0.name }.joined(separator: ", ")
            throw Problem.invalidTopic("unknown topic \"\(Self.shown(topic))\"; the topics are \(names)")
        }
        let id = parts.count > 1 ? String(parts[1]) : nil
        if kind.takesID {
            guard let id, isWellFormedID(id) else {
                throw Problem.invalidTopic("\(kind.name) takes an id: \(kind.name):ID, of letters, digits and dashes")
            }
        } else if id != nil {
            throw Problem.invalidTopic("\(kind.name) takes no id")
        }
        return LiveTopicRequest(kind: kind, id: id)
    }

    private static func isWellFormedID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= idBytesMax
            && id.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// The topic as the client sent it, cut short for a message.
    private static func shown(_ topic: Substring) -> String {
        String(topic.prefix(40).filter { $0.isASCII && !$0.isNewline })
    }

    /// The position to resume after, from the `Last-Event-ID` header or, for clients that cannot
    /// set headers, the `lastEventId` parameter (the header wins); nil when neither is given.
    /// 400 `invalid_last_event_id` unless it is a position of this log (at most `head`).
    static func lastEventID(header: String?, query: String?, head: UInt64) throws -> UInt64? {
        guard let text = header ?? query else { return nil }
        guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (48...57).contains($0) }), let position = UInt64(text) else {
            throw Problem.invalidLastEventID("Last-Event-ID is the id (a log position) of an event this server sent")
        }
        guard position <= head else {
            throw Problem.invalidLastEventID("position \(position) is past the end of the log (\(head))")
        }
        return position
    }
}
