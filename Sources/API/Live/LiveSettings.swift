/// How live streams behave on this server: the defaults of `LiveLimits`, overridable from the
/// environment so tests (and operators) can use short keep-alives and small buffers.
struct LiveSettings: Sendable, Equatable {
    /// Between keep-alive comments (`LOGBOOK_LIVE_KEEPALIVE_SECONDS`, 1…3600).
    var keepAliveInterval: Duration = .seconds(LiveLimits.keepAliveSecondsDefault)
    /// Notifications waiting for a client before it is disconnected (`LOGBOOK_LIVE_BUFFER_EVENTS`, 1…65536).
    var bufferEventsMax = LiveLimits.bufferEventsMaxDefault
    /// Open streams per user (`LOGBOOK_LIVE_STREAMS_PER_USER_MAX`, 1…1024).
    var streamsPerUserMax = LiveLimits.streamsPerUserMaxDefault

    /// The defaults, with each variable of `environment` that holds a number in its range in
    /// place of its default; any other value is ignored (the default is safe).
    init(environment: [String: String]) {
        if let seconds = Self.number(environment["LOGBOOK_LIVE_KEEPALIVE_SECONDS"], in: 1...3_600) {
            keepAliveInterval = .seconds(seconds)
        }
        if let events = Self.number(environment["LOGBOOK_LIVE_BUFFER_EVENTS"], in: 1...65_536) { bufferEventsMax = events }
        if let streams = Self.number(environment["LOGBOOK_LIVE_STREAMS_PER_USER_MAX"], in: 1...1_024) { streamsPerUserMax = streams }
    }

    private static func number(_ text: String?, in range: ClosedRange<Int>) -> Int? {
        guard let text, let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
