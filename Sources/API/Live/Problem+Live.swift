import HTTPTypes

/// The live route's refusals, all before a stream starts.
extension Problem {
    /// 400 `invalid_topic`: a topic that is not one of the server's, or not of its shape.
    static func invalidTopic(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "invalid_topic", title: "Invalid topic", detail: detail)
    }

    /// 400 `too_many_topics`: more than `LiveLimits.topicsPerStreamMax` in one stream.
    static let tooManyTopics = Problem(
        status: .badRequest, code: "too_many_topics", title: "Too many topics",
        detail: "a stream may watch at most \(LiveLimits.topicsPerStreamMax) topics; open another stream for more")

    /// 400 `invalid_last_event_id`: not a position of this log.
    static func invalidLastEventID(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "invalid_last_event_id", title: "Invalid Last-Event-ID", detail: detail)
    }

    /// 429 `too_many_streams`: the caller has `max` streams open already.
    static func tooManyStreams(_ max: Int) -> Problem {
        Problem(status: .tooManyRequests, code: "too_many_streams", title: "Too many streams",
                detail: "a user may hold at most \(max) live streams open; close one first")
    }

    /// 503 `live_unavailable`: the server is starting (its read models are not open yet) or stopping.
    static let liveUnavailable = Problem(
        status: .serviceUnavailable, code: "live_unavailable", title: "Live updates unavailable",
        detail: "the server is starting or stopping; try again shortly", headers: [.retryAfter: "1"])
}
