import Foundation

/// How a request that failed transiently is tried again: the same request, with the same
/// Idempotency-Key, after a capped, jittered exponential delay, a bounded number of times.
///
/// Transient: the network (connection refused or reset, a timeout: anything the transport throws
/// but a cancellation), 502, 503 and 504, and 429, whose `Retry-After` is honoured. Everything
/// else is the server's answer and is returned at once.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included; 1 never retries.
    public var attempts: Int
    /// The delay before the first retry; each next one doubles, up to `delayMax`.
    public var delayInitial: Duration
    public var delayMax: Duration
    /// A `Retry-After` longer than this is not waited for: the problem is thrown instead.
    public var retryAfterMax: Duration

    public init(attempts: Int = 5, delayInitial: Duration = .milliseconds(200), delayMax: Duration = .seconds(5), retryAfterMax: Duration = .seconds(30)) {
        precondition(attempts >= 1, "at least one attempt")
        self.attempts = attempts
        self.delayInitial = delayInitial
        self.delayMax = delayMax
        self.retryAfterMax = retryAfterMax
    }

    /// The default: 5 attempts over at most about 3 s of backoff.
    public static let standard = RetryPolicy()
    /// One attempt (benchmarks, and callers that handle failures themselves).
    public static let never = RetryPolicy(attempts: 1)

    /// The delay before attempt `attempt + 1` (attempt counts from 1): "full jitter", uniformly
    /// in [0, min(max, initial·2^(attempt-1))], so many clients retrying at once spread out.
    func delay(after attempt: Int) -> Duration {
        let exponent = min(attempt - 1, 30)
        let ceiling = min(delayMax, delayInitial * (1 << exponent))
        let seconds = Double(ceiling.components.seconds) + Double(ceiling.components.attoseconds) / 1e18
        return .seconds(Double.random(in: 0...seconds))
    }

    static func isTransient(status: Int) -> Bool {
        status == 429 || status == 502 || status == 503 || status == 504
    }
}
