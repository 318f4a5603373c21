/// Something that went wrong in the projection engine without a caller to throw it to: the
/// live runner and background rebuilds report these so the server can log them
/// (`ProjectionEngine.reportIncidents(to:)`); each is also visible in the engine's status.
public enum ProjectionIncident: Sendable, Equatable {
    /// A projection's `apply` threw on the event at `position`: it is marked failed and skipped.
    case projectionFailed(name: String, position: UInt64, reason: String)
    /// Reading the log failed; the runner tries again after `retryAfter`.
    case logReadFailed(reason: String, failures: Int, retryAfter: Duration)
    /// The log reads again after failing `failures` times.
    case logReadRecovered(failures: Int)
    /// A rebuild of projection `name` failed; the served copy is unchanged.
    case rebuildFailed(name: String, reason: String)
    /// The live runner returned: it was cancelled or the log closed. (When it throws, the
    /// error goes to its caller instead.)
    case runnerStopped(reason: String)
}
