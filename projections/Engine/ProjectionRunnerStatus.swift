/// What the live projection runner is doing, for `/health/ready`: a runner that has not caught
/// up, has stopped or cannot read the log leaves the read models behind the log.
public struct ProjectionRunnerStatus: Sendable, Equatable {
    /// The runner's phase.
    public enum Phase: String, Sendable, Equatable {
        /// `runLive` has not been called yet.
        case starting
        /// Running, but it has not yet reached the end of the log as it found it.
        case catchingUp = "catching_up"
        /// Following the log at its head.
        case running
        /// `runLive` returned or threw: nothing projects new events until a restart.
        case stopped
    }

    /// The runner's phase.
    public var phase: Phase = .starting
    /// Why the runner stopped, when it did (the log closed, a storage failure, a shutdown).
    public var stopReason: String?
    /// The last error reading the log, while reads keep failing (the runner retries them with
    /// backoff); nil once a read succeeds again.
    public var logReadError: String?
    /// Log reads that failed in a row.
    public var logReadFailures = 0
}
