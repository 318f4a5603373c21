import HTTPTypes
import Hummingbird

/// A problem whose response needs headers besides the body: the `WWW-Authenticate` challenge of
/// a 401, the `Retry-After` of a 429. `AuthProblemMiddleware` answers it.
struct AuthProblem: Error, Sendable, Equatable {
    /// The problem+json body and status.
    var problem: Problem
    /// Headers the response carries.
    var headers: HTTPFields

    /// The realm named in challenges.
    static let realm = "logbook"

    /// No bearer token, or one that is unknown, expired or revoked. The detail does not say
    /// which: a caller with a revoked token learns nothing from telling them apart.
    static func unauthorized(tokenGiven: Bool) -> AuthProblem {
        // RFC 6750 §3: a request without credentials gets the bare challenge; a bad token also `error`.
        let challenge = tokenGiven ? "Bearer realm=\"\(realm)\", error=\"invalid_token\"" : "Bearer realm=\"\(realm)\""
        return AuthProblem(
            problem: Problem(status: .unauthorized, code: "unauthorized", title: "Unauthorized",
                             detail: tokenGiven ? "the bearer token is not valid (any more); log in again"
                                 : "this route needs an Authorization: Bearer token"),
            headers: [.wwwAuthenticate: challenge])
    }

    /// Wrong e-mail or password at login: one answer for both, so it reveals no account.
    static let invalidCredentials = AuthProblem(
        problem: Problem(status: .unauthorized, code: "invalid_credentials", title: "Invalid credentials",
                         detail: "the e-mail or the password is wrong"),
        headers: [.wwwAuthenticate: "Bearer realm=\"\(realm)\""])

    /// Too many failures for the e-mail or from the address; `seconds` until the next try.
    static func tooManyAttempts(retryAfter seconds: Int) -> AuthProblem {
        AuthProblem(
            problem: Problem(status: .tooManyRequests, code: "too_many_attempts", title: "Too many attempts",
                             detail: "too many failed attempts; try again in \(seconds) seconds"),
            headers: [.retryAfter: String(seconds)])
    }

    /// The response: the problem's, with the headers added.
    func response() -> Response {
        var response = problem.response()
        response.headers.append(contentsOf: headers)
        return response
    }
}

extension Problem {
    /// A wrong current password on a password change: 403, not 401, because the bearer token is
    /// fine and a client must not take the answer for "logged out".
    static let wrongCurrentPassword = Problem(
        status: .forbidden, code: "invalid_credentials", title: "Invalid credentials", detail: "the current password is wrong")
}
