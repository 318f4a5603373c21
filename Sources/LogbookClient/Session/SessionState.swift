import Foundation

/// Whether the client holds a session the server accepts.
public enum SessionState: Sendable, Equatable {
    case signedIn(userId: String)
    /// No session: never signed in, signed out, or ended by the server (`reason`).
    case signedOut(reason: SignOutReason?)

    public var userId: String? {
        if case let .signedIn(userId) = self { return userId }
        return nil
    }
}

public enum SignOutReason: Sendable, Equatable {
    /// The app called `signOut()`, or erased the account.
    case requested
    /// The server refused the token (401): expired, revoked elsewhere, or its account erased.
    case tokenRejected(code: String)
}

/// The session's credentials, their store and the state published from them.
final class Session: Sendable {
    let store: any CredentialStore
    private let credentials: Locked<Credentials?>
    let states: Broadcast<SessionState>

    init(store: any CredentialStore) {
        self.store = store
        // An unreadable store is no session: signing in again writes it anew.
        let stored = (try? store.load()) ?? nil
        credentials = Locked(stored)
        states = Broadcast(stored.map { .signedIn(userId: $0.userId) } ?? .signedOut(reason: nil))
    }

    var current: Credentials? { credentials.withLock { $0 } }

    func signedIn(_ new: Credentials) throws {
        try store.save(new)
        credentials.withLock { $0 = new }
        states.send(.signedIn(userId: new.userId))
    }

    /// The server's answer `problem` to a request sent with `token`: a 401 `unauthorized` for
    /// it ends the session (the one rule of ProblemMiddleware and the outbox's sender).
    func answered(_ problem: LogbookProblem, forToken token: String?) {
        guard problem.status == 401, problem.code == "unauthorized", let token else { return }
        signedOut(.tokenRejected(code: problem.code), token: token)
    }

    /// Forgets the credentials; `token` given, only if they are still those (a 401 for an old
    /// token must not end a session begun since).
    func signedOut(_ reason: SignOutReason, token: String? = nil) {
        let ended = credentials.withLock { current -> Bool in
            guard current != nil, token == nil || current?.token == token else { return false }
            current = nil
            return true
        }
        guard ended else { return }
        try? store.clear()
        states.send(.signedOut(reason: reason))
    }
}
