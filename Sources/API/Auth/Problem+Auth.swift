import HTTPTypes
import Hummingbird

/// The account routes' refusals whose responses carry headers besides the body: the
/// `WWW-Authenticate` challenge of a 401, the `Retry-After` of a 429.
extension Problem {
    /// The realm named in challenges.
    static let authRealm = "logbook"

    /// No bearer token, or one that is unknown, expired or revoked. The detail does not say
    /// which: a caller with a revoked token learns nothing from telling them apart.
    static func unauthorized(tokenGiven: Bool) -> Problem {
        // RFC 6750 §3: a request without credentials gets the bare challenge; a bad token also `error`.
        let challenge = tokenGiven ? "Bearer realm=\"\(authRealm)\", error=\"invalid_token\"" : "Bearer realm=\"\(authRealm)\""
        return Problem(
            status: .unauthorized, code: "unauthorized", title: "Unauthorized",
            detail: tokenGiven ? "the bearer token is not valid (any more); log in again" : "this route needs an Authorization: Bearer token",
            headers: [.wwwAuthenticate: challenge])
    }

    /// Wrong e-mail or password at login: one answer for both, so it reveals no account.
    static let invalidCredentials = Problem(
        status: .unauthorized, code: "invalid_credentials", title: "Invalid credentials",
        detail: "the e-mail or the password is wrong", headers: [.wwwAuthenticate: "Bearer realm=\"\(authRealm)\""])

    /// Too many failures for the e-mail or from the address; `seconds` until the next try.
    static func tooManyAttempts(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, code: "too_many_attempts", title: "Too many attempts",
            detail: "too many failed attempts; try again in \(seconds) seconds", headers: [.retryAfter: String(seconds)])
    }

    /// A retried login or registration (same Idempotency-Key) whose session has ended since
    /// (logout, password reset, expiry): its token would not work, and a new one would make the
    /// retry do more than the first request did. 409: the request conflicts with what happened.
    static let sessionEnded = Problem(
        status: .conflict, code: "session_ended", title: "Session ended",
        detail: "the session this request started has ended since; log in again with a new Idempotency-Key")

    /// A wrong current password on a password change: 403, not 401, because the bearer token is
    /// fine and a client must not take the answer for "logged out".
    static let wrongCurrentPassword = Problem(
        status: .forbidden, code: "invalid_credentials", title: "Invalid credentials", detail: "the current password is wrong")
}
