import Foundation

extension LogbookConfiguration {
    /// How long a session token works after login or registration.
    static let sessionLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// How long a password-reset token works after it was asked for.
    static let passwordResetLifetime: TimeInterval = 60 * 60
    /// Failed logins for one e-mail, or from one client address, within `loginFailureWindow`
    /// after which every further attempt is refused until the oldest of them leaves the window.
    static let loginFailuresMax = 10
    /// The window failed logins are counted in.
    static let loginFailureWindow: TimeInterval = 15 * 60
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
