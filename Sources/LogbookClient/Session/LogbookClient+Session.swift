import Foundation
import OpenAPIRuntime

extension LogbookClient {
    /// The session now.
    public var sessionState: SessionState { session.states.latest }

    /// The session now and each change after: a sign-in, a sign-out, a token the server refused.
    public var sessionStates: AsyncStream<SessionState> { session.states.stream() }

    /// Whose session the client holds, if any.
    public var credentials: Credentials? { session.current }

    /// Creates an account and signs in to it.
    @discardableResult
    public func register(_ registration: Components.Schemas.AccountRegistration) async throws -> Credentials {
        let created = try await run { try await $0.createAccount(body: .json(registration)).created.body.json }
        let credentials = Credentials(userId: created.userId, token: created.token, expiresAt: created.expiresAt)
        try session.signedIn(credentials)
        return credentials
    }

    /// Creates an account with the fields every account has, and signs in to it.
    @discardableResult
    public func register(email: String, password: String, displayName: String) async throws -> Credentials {
        try await register(.init(email: email, password: password, displayName: displayName))
    }

    /// Signs in; the token goes to the credential store.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Credentials {
        let created = try await run { api in
            try await api.createSession(headers: .init(), body: .json(.init(email: email, password: password))).created.body.json
        }
        let credentials = Credentials(userId: created.userId, token: created.token, expiresAt: created.expiresAt)
        try session.signedIn(credentials)
        return credentials
    }

    /// Ends the session on the server (its token stops working) and forgets it here. A token the
    /// server no longer knows is forgotten just the same.
    public func signOut() async throws {
        guard let credentials = session.current else { return }
        do {
            _ = try await run { try await $0.deleteCurrentSession().noContent }
        } catch let problem as LogbookProblem where problem.status == 401 {
            // Already ended there.
        }
        session.signedOut(.requested, token: credentials.token)
    }

    /// Erases the account (SPEC: its personal data reads as erased everywhere) and signs out.
    public func eraseMe(password: String) async throws {
        guard let credentials = session.current else { throw LogbookProblem(status: 401, code: "unauthorized", title: "Unauthorized", detail: "not signed in") }
        _ = try await run { try await $0.eraseMe(body: .json(.init(password: password))).noContent }
        session.signedOut(.requested, token: credentials.token)
    }
}
