import Foundation

extension LogbookConfiguration {
    /// How long a session token works after login or registration.
    static let sessionLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// How long a password-reset token works after it was asked for.
    static let passwordResetLifetime: TimeInterval = 60 * 60
    /// How long an e-mail verification token works after it was mailed (SPEC Accounts: 24 h).
    static let emailVerificationLifetime: TimeInterval = 24 * 60 * 60
    /// Failed logins for one e-mail from one client address, or from one client address for any
    /// e-mail, within `loginFailureWindow`, after which further attempts from there are refused
    /// until the oldest of them leaves the window. Also the wrong current passwords a signed-in
    /// user may give a password change, and the failures an e-mail may have from everywhere
    /// before its logins are slowed down.
    static let loginFailuresMax = 10
    /// The window failed logins are counted in.
    static let loginFailureWindow: TimeInterval = 15 * 60
    /// The delay added to a login for an e-mail per failure it had (from any address) beyond
    /// `loginFailuresMax` in the window: many addresses guessing one password are slowed, and
    /// the owner is never locked out.
    static let loginDelayStep: Duration = .milliseconds(250)
    /// The longest delay a login is given.
    static let loginDelayMax: Duration = .seconds(3)
    /// Reset requests waiting for the background worker at most; more are answered 202 like
    /// any other and dropped (a flood, which the per-account cap would drop anyway).
    static let passwordResetsQueuedMax = 1_000
    /// How long the reset worker lets a request's answer go out before it starts the request's
    /// work, so the work does not slow the answer down (which would tell an account's e-mail).
    static let passwordResetWorkDelay: Duration = .milliseconds(10)
    /// Reset requests recorded per account within `passwordResetRequestWindow`; more are
    /// answered 202 like any other and dropped, so no one can flood a mailbox with links.
    static let passwordResetRequestsMax = 5
    /// The window reset requests are counted in.
    static let passwordResetRequestWindow: TimeInterval = 60 * 60
    /// E-mails and addresses a limiter tracks at most: a bound on memory under a flood of
    /// made-up e-mails (about 200 bytes each).
    static let rateLimitKeysMax = 50_000
    /// The environment variable holding the server's secret key (base64 of 32 bytes).
    static let secretKeyVariable = "LOGBOOK_SECRET_KEY"

    /// `date + interval`, cut to whole seconds: the log stores milliseconds and the API shows
    /// seconds, so a replayed outcome must not differ from the first in a fraction.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
