/// The bounds of live streams (`GET /v1/live`). Over one is a problem+json before the stream
/// starts, never a silent cut.
enum LiveLimits {
    /// Topics one stream may name: each costs a registry entry and an authorization check, and a
    /// client watching more opens a second stream.
    static let topicsPerStreamMax = 16
    /// Bytes the `topics` parameter may hold (sixteen `organisation:<uuid>` are about 450).
    static let topicsParameterBytesMax = 1_024
    /// Streams one user may hold open at once (a phone and a laptop, a few tabs); each holds a
    /// connection and a buffer, so one account cannot exhaust the server.
    static let streamsPerUserMaxDefault = 8
    /// Notifications a stream may have waiting for its client; a client further behind is
    /// disconnected (it resumes with `Last-Event-ID`) so it never holds up the others.
    static let bufferEventsMaxDefault = 256
    /// Seconds between keep-alive comments on an idle stream: below the usual 30–60 s idle
    /// timeouts of proxies and load balancers.
    static let keepAliveSecondsDefault = 15
    /// Events a catching-up stream reads from the log per page.
    static let catchUpPageEvents = 500
}
