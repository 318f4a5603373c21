import Foundation
import Synchronization

/// The limit on guessing join codes (SPEC §4 household): wrong codes are counted per user and
/// per client address, and a right code is always accepted, so a housemate behind an address
/// someone guessed from (a shared flat's router, a campus NAT) still joins.
///
/// Below both limits a wrong code answers 404 `wrong_join_code` and counts for the user and the
/// address (`RateLimiter.reserve` checks and counts in one step, so simultaneous wrong codes
/// cannot overshoot). Once the user or the address has `joinFailuresMax` in the window, an
/// attempt is still checked, but first waits `joinDelayOverLimit`, and a user has at most one
/// such attempt in flight: a second one at the same time answers 429 at once, unchecked. A
/// right code then joins (200); a wrong one answers 429 `too_many_attempts` with Retry-After.
///
/// Why this does not make guessing cheaper: a join code holds 256 random bits, so no number
/// of attempts finds one; what a limit can do is make each attempt cost. Whether the answer
/// is 404 or 429 depends only on the counts, never on the code, and either one says only
/// "not this code", which any answer to a wrong guess must say; the delay comes before the
/// check, so its length says nothing either. What a limit reached changes is the cost: a
/// guesser's account gets `joinFailuresMax` quick attempts per window, then at most one per
/// `joinDelayOverLimit`, and more accounts behind one address cost one delayed attempt at a
/// time each, once the address is over its limit. The one a limit refuses unchecked is a user
/// already waiting with an attempt of their own over the limit: the guesser, never a housemate.
final class JoinThrottle: Sendable {
    /// Wrong codes by user and by address.
    let failures: RateLimiter
    /// Users with an attempt over a limit waiting for its check.
    private let waiting = Mutex<Set<String>>([])

    init() {
        failures = RateLimiter(
            eventsMax: LogbookConfiguration.joinFailuresMax, window: LogbookConfiguration.joinFailureWindow,
            keysMax: LogbookConfiguration.rateLimitKeysMax)
    }

    /// What `lookUp` finds for a join code given by `userId` from `address`, checked as the
    /// limits allow; nil when it found nothing (a wrong code, counted: answer 404). Throws 429
    /// `too_many_attempts` for a wrong code over a limit, and `lookUp`'s errors.
    func check<Found>(
        userId: String, address: String, clock: () -> Date, pause: @Sendable (Duration) async throws -> Void,
        lookUp: () throws -> Found?
    ) async throws -> Found? {
        let keys = ["user:\(userId)", "address:\(address)"]
        if let seconds = failures.retryAfter(keys, now: clock()) {
            guard waiting.withLock({ $0.insert(userId).inserted }) else { throw Problem.tooManyAttempts(retryAfter: seconds) }
            defer { _ = waiting.withLock { $0.remove(userId) } }
            try await pause(LogbookConfiguration.joinDelayOverLimit)
            return try checked(keys, now: clock(), lookUp)
        }
        return try checked(keys, now: clock(), lookUp)
    }

    /// `lookUp`'s find, else the wrong code counted (nil) or, over a limit, 429.
    private func checked<Found>(_ keys: [String], now: Date, _ lookUp: () throws -> Found?) throws -> Found? {
        if let found = try lookUp() { return found }
        switch failures.reserve(keys, now: now) {
        case .admitted: return nil
        case .heldBack(let seconds): throw Problem.tooManyAttempts(retryAfter: seconds)
        }
    }
}
