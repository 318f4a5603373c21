import Accounts
import Crypto
import Foundation

/// The limits on password guessing (SPEC §1 Accounts), made so that no anonymous client can
/// lock an owner out:
///
/// - a login is refused (429) after `loginFailuresMax` failures in the window for its e-mail
///   *from its address*, or from its address for any e-mail; another address is not affected;
/// - an e-mail failing from many addresses is slowed down, never refused: each login for it
///   waits `delay(forEmail:now:)`, which grows with its failures from everywhere;
/// - a password change is refused only after its own user's wrong current passwords.
///
/// Each attempt takes its slots before the password check and gives them back if the password
/// was right, so simultaneous wrong attempts cannot exceed a limit.
final class LoginThrottle: Sendable {
    /// Failures by (e-mail, address), by address, and wrong current passwords by user.
    let failures: RateLimiter
    /// Failures by e-mail from anywhere: never refuses, only counts for the delay.
    let emailFailures: RateLimiter

    /// A login let through: it holds a slot of its (e-mail, address) key and its address key.
    struct Attempt: Sendable {
        fileprivate let reservation: RateLimiter.Reservation
        fileprivate let pairKey: String
        fileprivate let addressKey: String
        fileprivate let emailKey: String
    }

    init() {
        failures = RateLimiter(
            eventsMax: LogbookConfiguration.loginFailuresMax, window: LogbookConfiguration.loginFailureWindow,
            keysMax: LogbookConfiguration.rateLimitKeysMax)
        // Counting further than the failures that reach the longest delay would change nothing.
        emailFailures = RateLimiter(
            eventsMax: LogbookConfiguration.loginFailuresMax + Self.stepsToLongestDelay,
            window: LogbookConfiguration.loginFailureWindow, keysMax: LogbookConfiguration.rateLimitKeysMax)
    }

    /// Lets a login for the normalised `email` from `address` go ahead, holding its slots;
    /// 429 `too_many_attempts` with Retry-After when either limit is reached.
    func admitLogin(email: String, address: String, now: Date) throws -> Attempt {
        let emailKey = Self.emailKey(email)
        let pairKey = "login:\(address) \(emailKey)"
        let addressKey = "address:\(address)"
        switch failures.reserve([pairKey, addressKey], now: now) {
        case .heldBack(let seconds):
            throw Problem.tooManyAttempts(retryAfter: seconds)
        case .admitted(let reservation):
            return Attempt(reservation: reservation, pairKey: pairKey, addressKey: addressKey, emailKey: emailKey)
        }
    }

    /// The wrong password stays counted where `attempt` took its slots, and counts for its e-mail.
    func loginFailed(_ attempt: Attempt, now: Date) {
        emailFailures.record([attempt.emailKey], now: now, as: attempt.reservation.id)
    }

    /// The right password: the attempt is no failure, and the address's earlier failures for the
    /// e-mail (the owner's typos) are forgotten, also in the address's and the e-mail's counts.
    /// Its failures for other e-mails stay: logging in to one's own account does not excuse
    /// guessing at others; and so do the e-mail's failures from other addresses.
    func loginSucceeded(_ attempt: Attempt) {
        failures.release(attempt.reservation)
        let typos = failures.reset(attempt.pairKey, alsoFrom: [attempt.addressKey])
        emailFailures.forget(typos, from: [attempt.emailKey])
    }

    /// The attempt could not be checked (the service failed): it is no failure.
    func loginAbandoned(_ attempt: Attempt) {
        failures.release(attempt.reservation)
    }

    /// How long a login for the normalised `email` waits before it is answered.
    func delay(forEmail email: String, now: Date) -> Duration {
        Self.delay(afterFailures: emailFailures.count(Self.emailKey(email), now: now))
    }

    /// Forgets the e-mail's failures from everywhere (its owner just set a new password).
    func forgetFailures(ofEmail email: String) {
        emailFailures.reset(Self.emailKey(email))
    }

    /// Lets a password change of `userId` go ahead, holding its slot; 429 after the user's own
    /// `loginFailuresMax` wrong current passwords in the window.
    func admitPasswordChange(userId: String, now: Date) throws -> RateLimiter.Reservation {
        switch failures.reserve(["password-change:\(userId)"], now: now) {
        case .heldBack(let seconds): throw Problem.tooManyAttempts(retryAfter: seconds)
        case .admitted(let reservation): return reservation
        }
    }

    /// The current password was right (or could not be checked): the change attempt is no failure.
    func passwordChangeChecked(_ reservation: RateLimiter.Reservation) {
        failures.release(reservation)
    }

    /// The delay after `failures` of an e-mail in the window: none for the first
    /// `loginFailuresMax` (its owner's typos), then `loginDelayStep` more per failure, up to
    /// `loginDelayMax`.
    static func delay(afterFailures failures: Int) -> Duration {
        let beyond = failures - LogbookConfiguration.loginFailuresMax
        guard beyond > 0 else { return .zero }
        return min(LogbookConfiguration.loginDelayMax, LogbookConfiguration.loginDelayStep * beyond)
    }

    private static var stepsToLongestDelay: Int {
        Int((LogbookConfiguration.loginDelayMax / LogbookConfiguration.loginDelayStep).rounded(.up))
    }

    /// The e-mail as a limiter key: itself when it could be an account's, else its SHA-256, so
    /// a flood of huge made-up e-mails cannot fill memory with them.
    private static func emailKey(_ email: String) -> String {
        guard email.utf8.count > AccountRules.emailBytesMax else { return email }
        return "sha256:" + TokenHash(digest: SHA256.hash(data: Data(email.utf8))).hex
    }
}
