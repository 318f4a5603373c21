/// One thing a live stream sends, and its Server-Sent Events form.
enum LiveMessage: Sendable, Equatable {
    /// An event of a watched topic, once the read models include it.
    case event(position: UInt64, type: String, topic: String)
    /// A comment that keeps an idle connection open through proxies.
    case keepAlive
    /// The last thing a stream sends before it ends, as a comment saying why.
    case closing(LiveEnd)

    /// The SSE frame: `id:`/`event:`/`data:` lines for an event, a `:` comment otherwise; each
    /// ends with the blank line that dispatches it.
    var frame: String {
        switch self {
        case let .event(position, type, topic):
            // Types and topics are ids and type names of [A-Za-z0-9.:_-]: nothing to escape in JSON.
            "id: \(position)\nevent: \(type)\ndata: {\"topic\":\"\(topic)\",\"type\":\"\(type)\",\"position\":\(position)}\n\n"
        case .keepAlive:
            ": keep-alive\n\n"
        case let .closing(reason):
            ": closed: \(reason.rawValue)\n\n"
        }
    }
}

/// Why the server ended a stream. The client resumes with `Last-Event-ID` where it makes sense.
enum LiveEnd: String, Sendable, Equatable {
    /// Its buffer filled: the client did not keep up. Resuming sends what it missed.
    case tooSlow = "too_slow"
    /// The caller may no longer watch any of its topics (they left, moved, were removed).
    case revoked = "revoked"
    /// A recheck of the caller's access could not be made (a read model was rebuilding): the
    /// client reconnects, resuming with Last-Event-ID, and its topics are checked anew.
    case unavailable = "unavailable"
    /// The session of its token ended (logout, password change, expiry at a recheck).
    case sessionEnded = "session_ended"
    /// The server is shutting down; another instance (or this one, restarted) resumes it.
    case shutdown = "shutdown"
    /// The client went away.
    case disconnected = "disconnected"
}
