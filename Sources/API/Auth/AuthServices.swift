import Foundation

/// What the account routes need besides the log and the read models: the server's secrets,
/// bcrypt, the in-memory limits on password guessing and reset requests, and the queue of
/// reset requests carried out in the background.
final class AuthServices: Sendable {
    /// The secret key's uses: sealing reset tokens, deriving retried tokens and ids.
    let secrets: AuthSecrets
    /// bcrypt at the configured cost.
    let passwords: AuthPasswords
    /// Failed logins and wrong current passwords: limits and delays.
    let logins: LoginThrottle
    /// Mails asked for by account: reset requests (`reset:<user>`) and verification requests
    /// (`verification:<user>`), each counted under its own key.
    let resetRequests: RateLimiter
    /// Reset requests accepted and not yet carried out (`PasswordResetWorker`).
    let passwordResets: PasswordResetQueue

    /// Services for `configuration`; the secret key from `environment` or the data directory.
    init(configuration: LogbookConfiguration, environment: [String: String]) throws {
        secrets = try AuthSecrets.load(dataDirectory: configuration.dataDirectory, environment: environment)
        passwords = AuthPasswords(cost: configuration.bcryptCost)
        logins = LoginThrottle()
        resetRequests = RateLimiter(
            eventsMax: LogbookConfiguration.passwordResetRequestsMax, window: LogbookConfiguration.passwordResetRequestWindow,
            keysMax: LogbookConfiguration.rateLimitKeysMax)
        passwordResets = PasswordResetQueue(pendingMax: LogbookConfiguration.passwordResetsQueuedMax)
    }
}
