import Accounts
import Foundation
import Projections

/// The caller of a route that needs a bearer token: the account and the token's hash.
struct AuthSession: Sendable, Equatable {
    /// The account the token logs in as; the actor of the caller's commands.
    var userId: String
    /// SHA-256 of the bearer token, to log out this session and no other.
    var tokenHash: TokenHash
}

/// Resolves the request's bearer token (from `RequestInfo`) to its session.
struct Authenticator: Sendable {
    let runtime: LogbookRuntime

    /// The session of the request's bearer token; 401 `unauthorized` with a `WWW-Authenticate`
    /// challenge unless the token works now.
    func authenticate() throws -> AuthSession {
        let (session, stored) = try bearerSession()
        guard stored.isActive(at: runtime.configuration.clock()) else { throw Problem.unauthorized(tokenGiven: true) }
        return session
    }

    /// The bearer token's session as the read model has it, ended or expired ones included;
    /// 401 when there is no token or the service never issued it.
    func bearerSession() throws -> (AuthSession, AccountSession) {
        guard let token = RequestInfo.current.bearerToken, !token.isEmpty else {
            throw Problem.unauthorized(tokenGiven: false)
        }
        // A token of another shape was never issued: no hashing, no lookup.
        guard AuthTokens.isWellFormed(token) else { throw Problem.unauthorized(tokenGiven: true) }
        let tokenHash = AuthTokens.hash(token)
        guard let stored = try runtime.accounts.session(tokenHash) else { throw Problem.unauthorized(tokenGiven: true) }
        return (AuthSession(userId: stored.userId, tokenHash: tokenHash), stored)
    }
}

extension LogbookAPI {
    /// The caller of a route that needs a token: every such route starts with this. Throws 401
    /// `unauthorized` with a `WWW-Authenticate: Bearer` challenge for a missing, unknown,
    /// expired or revoked token.
    func authenticate() throws -> AuthSession {
        try Authenticator(runtime: runtime).authenticate()
    }
}
