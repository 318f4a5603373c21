import Accounts
import CommandHandling
import EventLog
import Foundation

/// A session just started, as register and login answer it.
struct StartedSession: Sendable {
    var userId: String
    var token: String
    var expiresAt: Date
    var position: UInt64
    var eventTypes: [String]
}

extension AccountsService {
    /// Registers an account, mails the token that verifies its e-mail, and starts its first
    /// session.
    ///
    /// A retry (same Idempotency-Key) runs as the same account id (derived from the key) and
    /// the same session token (derived too), so it answers exactly as the first attempt did; it
    /// must repeat the e-mail and the password, which are checked against the recorded ones.
    func register(_ body: Components.Schemas.AccountRegistration) async throws -> StartedSession {
        let key = try idempotencyKey()
        let userId = key.map { auth.secrets.derivedUUID("account id", $0.uuidString).uuidString.lowercased() }
            ?? UUID.timeOrdered(at: now).uuidString.lowercased()
        // An invalid password is refused by the decider, with every other field's problem; it
        // is not worth a bcrypt.
        let passwordHash = PasswordPolicy.problem(with: body.password) == nil
            ? try await auth.passwords.hash(body.password) : try await auth.passwords.dummyHash()
        let register = AccountCommand.Register(
            userId: userId, email: body.email, passwordHash: passwordHash, passwordLength: PasswordPolicy.length(of: body.password),
            displayName: body.displayName, firstName: body.firstName, lastName: body.lastName, username: body.username,
            postcode: body.postcode, verification: newVerificationToken())
        let outcome = try await run(.register(register), actor: register.userId, expecting: AccountEvent.Registered.typeName)
        if outcome.isReplay { try await confirmRetriedRegistration(outcome, email: body.email, password: body.password) }
        let session = try await startSession(userId: register.userId, purpose: .registration)
        return StartedSession(
            userId: session.userId, token: session.token, expiresAt: session.expiresAt, position: session.position,
            eventTypes: outcome.eventTypes + session.eventTypes)
    }

    /// A retried registration gets the first one's token only for the same e-mail and password.
    private func confirmRetriedRegistration(_ outcome: CommandOutcome<AccountDecider>, email: String, password: String) async throws {
        guard case .registered(let first)? = outcome.events.first,
              first.email == AccountRules.normaliseEmail(email),
              try await auth.passwords.verify(password, against: first.passwordHash)
        else { throw Self.idempotencyKeyReused }
    }

    /// Logs in. A wrong password and an unknown e-mail take as long and answer the same; too
    /// many failures for the e-mail from this address, or from this address at all, answer 429
    /// before any check; an e-mail failing from many addresses is answered later, never refused
    /// (`LoginThrottle`).
    func login(email rawEmail: String, password: String) async throws -> StartedSession {
        let email = AccountRules.normaliseEmail(rawEmail)
        let attempt = try auth.logins.admitLogin(email: email, address: RequestInfo.current.clientAddress, now: now)
        let verified: Bool
        let userId: String?
        do {
            let delay = auth.logins.delay(forEmail: email, now: now)
            if delay > .zero { try await runtime.configuration.pause(delay) }
            (verified, userId) = try await verifyLogin(email: email, password: password)
        } catch {
            auth.logins.loginAbandoned(attempt)
            throw error
        }
        guard verified, let userId else {
            auth.logins.loginFailed(attempt, now: now)
            throw Problem.invalidCredentials
        }
        auth.logins.loginSucceeded(attempt)
        return try await startSession(userId: userId, purpose: .login)
    }

    /// Whether `password` is that of the account with the normalised `email`, and its id. An
    /// e-mail no account can have (empty, too long, malformed) is not looked up; the password
    /// is checked against a dummy hash then, as for an unknown one, so it takes as long.
    private func verifyLogin(email: String, password: String) async throws -> (verified: Bool, userId: String?) {
        let credentials = AccountRules.emailProblem(email) == nil ? try queries.credentials(email: email) : nil
        guard let credentials else {
            try await auth.passwords.verifyAgainstDummy(password)
            return (false, nil)
        }
        return (try await auth.passwords.verify(password, against: credentials.passwordHash), credentials.userId)
    }

    /// Logs the bearer token out. A retry of a logout that worked answers 204 again, though its
    /// token no longer works; any other use of an ended or expired token is 401.
    func logout() async throws {
        let (session, stored) = try Authenticator(runtime: runtime).bearerSession()
        if !stored.isActive(at: now) {
            guard stored.ended, try await isRetry() else { throw Problem.unauthorized(tokenGiven: true) }
        }
        _ = try await run(.endSession(.init(userId: session.userId, tokenHash: session.tokenHash)),
                          actor: session.userId, expecting: AccountEvent.SessionEnded.typeName)
    }

    /// Why a session starts; it names the derivation of a retried request's token.
    enum SessionPurpose: String {
        case registration = "registration session"
        case login = "login session"
    }

    /// Starts a session for `userId` with a new token.
    ///
    /// With an Idempotency-Key the token is derived from it, so a retry, answered with the
    /// first outcome (which holds only the token's hash), can hand out the same token again,
    /// while that session lasts; after it ended, 409 `session_ended`.
    /// A registration's session needs a command id of its own: the key names the registration.
    private func startSession(userId: String, purpose: SessionPurpose) async throws -> StartedSession {
        let key = try idempotencyKey()
        let token = key.map { auth.secrets.derivedToken(purpose.rawValue, $0.uuidString, userId) } ?? AuthTokens.random()
        let tokenHash = AuthTokens.hash(token)
        let expiresAt = LogbookConfiguration.wholeSeconds(now.addingTimeInterval(LogbookConfiguration.sessionLifetime))
        let command = AccountCommand.startSession(.init(userId: userId, tokenHash: tokenHash, expiresAt: expiresAt))
        var info = RequestInfo.current
        if purpose == .registration, let key {
            info.idempotencyKey = auth.secrets.derivedUUID(purpose.rawValue, key.uuidString).uuidString
        }
        let outcome = try await RequestInfo.$current.withValue(info) {
            try await run(command, actor: userId, expecting: AccountEvent.SessionStarted.typeName)
        }
        // A replay answers with the first attempt's expiry; its token must be this one.
        guard case .sessionStarted(let started)? = outcome.events.first, started.tokenHash == tokenHash else {
            throw Self.idempotencyKeyReused
        }
        // ...and must still work: a retry after a logout, a reset or the expiry would hand out a
        // dead token as if it were new.
        if outcome.isReplay, try queries.session(tokenHash)?.isActive(at: now) != true { throw Problem.sessionEnded }
        return StartedSession(userId: userId, token: token, expiresAt: started.expiresAt, position: outcome.position,
                              eventTypes: outcome.eventTypes)
    }
}
