import Foundation

/// What the account routes need besides the log and the read models: the server's secrets,
/// bcrypt, and the in-memory limits on login failures and reset requests.
final class AuthServices: Sendable {
    /// The secret key's uses: sealing reset tokens, deriving retried tokens and ids.
    let secrets: AuthSecrets
    /// bcrypt at the configured cost.
    let passwords: AuthPasswords
    /// Failed logins (and wrong current passwords) by e-mail and by client address.
    let loginFailures: RateLimiter
    /// Reset requests by account.
    let resetRequests: RateLimiter

    /// Services for `configuration`; the secret key from `environment` or the data directory.
    init(configuration: LogbookConfiguration, environment: [String: String]) throws {
        secrets = try AuthSecrets.load(dataDirectory: configuration.dataDirectory, environment: environment)
        passwords = AuthPasswords(cost: configuration.bcryptCost)
        loginFailures = RateLimiter(
            eventsMax: LogbookConfiguration.loginFailuresMax, window: LogbookConfiguration.loginFailureWindow,
            keysMax: LogbookConfiguration.rateLimitKeysMax)
        resetRequests = RateLimiter(
            eventsMax: LogbookConfiguration.passwordResetRequestsMax, window: LogbookConfiguration.passwordResetRequestWindow,
            keysMax: LogbookConfiguration.rateLimitKeysMax)
    }
}
