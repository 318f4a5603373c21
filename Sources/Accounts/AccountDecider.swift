import EventSourcing

/// The accounts domain: registration, profile, e-mail verification, password, sessions and
/// password reset.
///
/// Pure: passwords and tokens arrive hashed, ids and expiry times arrive made, and time is the
/// command's `metadata.now`. Uniqueness of e-mail and username is decided on the events of their
/// tags, and the append condition on the same tags makes two concurrent claims of one value
/// impossible: the second append sees the first's event and the runtime decides again.
public enum AccountDecider: Decider {
    /// See `AccountCommand`.
    public typealias Command = AccountCommand
    /// See `AccountEvent`.
    public typealias Event = AccountEvent
    /// See `AccountState`.
    public typealias State = AccountState
    /// See `AccountError`.
    public typealias Failure = AccountError

    /// No accounts, no claims.
    public static let initialState = AccountState()

    /// The account's own events (`user:<id>`), plus for commands that claim an e-mail or username
    /// the claim events of its tag. Items name account types only: other domains tag their events
    /// `user:<id>` too (a completed task, a post), and those neither inform these decisions nor
    /// should make an append of them retry.
    public static func boundary(of command: AccountCommand) -> Boundary {
        var boundary = Boundary([.init(types: AccountEvent.typeNames, tags: [AccountNames.userTag(command.userId)])])
        switch command {
        case .register(let register):
            boundary = boundary.union(emailClaims(register.email))
            if let username = register.username { boundary = boundary.union(usernameClaims(username)) }
        case .updateProfile(let update):
            if let email = update.email { boundary = boundary.union(emailClaims(email)) }
            if let username = update.username { boundary = boundary.union(usernameClaims(username)) }
        case .changePassword, .startSession, .endSession, .requestPasswordReset, .redeemPasswordReset, .setAvatar, .erase,
             .requestEmailVerification, .verifyEmail, .endAllSessions:
            break
        }
        return boundary
    }

    /// The events `command` produces, or why it is refused.
    public static func decide(_ command: AccountCommand, state: AccountState, metadata: CommandMetadata) throws(AccountError) -> [AccountEvent] {
        switch command {
        case .register(let register): try decideRegister(register, state, now: metadata.now)
        case .updateProfile(let update): try decideUpdateProfile(update, state, now: metadata.now)
        case .changePassword(let change): try decideChangePassword(change, state, now: metadata.now)
        case .startSession(let start): try decideStartSession(start, state, now: metadata.now)
        case .endSession(let end): try decideEndSession(end, state, now: metadata.now)
        case .requestPasswordReset(let request): try decideRequestPasswordReset(request, state, now: metadata.now)
        case .redeemPasswordReset(let redeem): try decideRedeemPasswordReset(redeem, state, now: metadata.now)
        case .setAvatar(let set): try decideSetAvatar(set, state)
        case .erase(let erase): try decideErase(erase, state, now: metadata.now)
        case .requestEmailVerification(let request): try decideRequestEmailVerification(request, state, now: metadata.now)
        case .verifyEmail(let verify): try decideVerifyEmail(verify, state, now: metadata.now)
        case .endAllSessions(let end): try decideEndAllSessions(end, state, now: metadata.now)
        }
    }

    /// Claims of the e-mail: its tag as decided, which the sealing step also names keyed
    /// (`EventSealer.boundary`), so accounts from before keyed tags, whose events carry the plain
    /// tag, hold their e-mail too.
    private static func emailClaims(_ rawEmail: String) -> Boundary {
        let types = [AccountEvent.Registered.typeName, AccountEvent.EmailChanged.typeName, AccountEvent.Erased.typeName]
        return Boundary([.init(types: types, tags: [AccountNames.emailTag(AccountRules.normaliseEmail(rawEmail))])])
    }

    private static func usernameClaims(_ rawUsername: String) -> Boundary {
        let types = [AccountEvent.Registered.typeName, AccountEvent.UsernameChanged.typeName, AccountEvent.Erased.typeName]
        return Boundary([.init(types: types, tags: [AccountNames.usernameTag(rawUsername)])])
    }
}
