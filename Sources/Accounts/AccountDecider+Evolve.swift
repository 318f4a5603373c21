extension AccountDecider {
    /// The state after `event`. Events of accounts whose registration is not in the state only
    /// move claims: they reached the boundary through an e-mail or username tag.
    public static func evolve(_ state: AccountState, _ event: AccountEvent) -> AccountState {
        var state = state
        switch event {
        case .registered(let e):
            state.claims[e.userId] = Claims(email: e.email, usernameKey: e.username.map(AccountRules.normaliseUsername))
            state.accounts[e.userId] = Account(
                email: e.email, username: e.username, displayName: e.displayName,
                firstName: e.firstName, lastName: e.lastName, postcode: e.postcode
            )
        case .emailChanged(let e):
            state.claims[e.userId, default: Claims()].email = e.newEmail
            state.accounts[e.userId]?.email = e.newEmail
            // A new address is unverified until its own token comes back.
            state.accounts[e.userId]?.isEmailVerified = false
        case .usernameChanged(let e):
            state.claims[e.userId, default: Claims()].usernameKey = AccountRules.normaliseUsername(e.newUsername)
            state.accounts[e.userId]?.username = e.newUsername
        case .profileUpdated(let e):
            state.accounts[e.userId]?.displayName = e.displayName
            state.accounts[e.userId]?.firstName = e.firstName
            state.accounts[e.userId]?.lastName = e.lastName
            state.accounts[e.userId]?.postcode = e.postcode
        case .passwordChanged(let e):
            // A reset link mailed before the password changed must not undo the change.
            state.accounts[e.userId]?.pendingResets = [:]
        case .sessionStarted(let e):
            state.accounts[e.userId]?.sessions[e.tokenHash] = e.expiresAt
        case .sessionEnded(let e):
            state.accounts[e.userId]?.sessions[e.tokenHash] = nil
        case .passwordResetRequested(let e):
            state.accounts[e.userId]?.pendingResets[e.tokenHash] = e.expiresAt
        case .passwordResetRedeemed(let e):
            // Every pending token dies, not only the redeemed one: after a reset, older links
            // in the mailbox are only a risk. (passwordChanged follows and would do it too.)
            state.accounts[e.userId]?.pendingResets = [:]
        case .avatarChanged(let e):
            state.accounts[e.userId]?.avatarBlobId = e.blobId
        case .emailVerificationRequested(let e):
            state.accounts[e.userId]?.pendingVerifications[e.tokenHash] = PendingVerification(email: e.email, expiresAt: e.expiresAt)
        case .emailVerified(let e):
            if state.accounts[e.userId]?.email == e.email { state.accounts[e.userId]?.isEmailVerified = true }
            // Every other link in the mailbox is spent too: one verification is enough.
            state.accounts[e.userId]?.pendingVerifications = [:]
        case .erased(let e):
            // Its e-mail and username are free again; no command finds the account any more,
            // and its avatar goes with it: the image is the user's.
            state.claims[e.userId] = nil
            state.accounts[e.userId] = nil
        }
        return state
    }
}
