import Accounts

extension AlbumsGroupsProjection {
    /// Which account holds which address, whether verified, under which name; and an erased
    /// account's memberships. An erased e-mail reads empty in a rebuild (ADR 0004): it is no
    /// one's address, and is not indexed.
    func applyAccount(_ event: AccountEvent, _ model: ReadModelWriter) throws {
        switch event {
        case .registered(let p):
            try model.put(AlbumsAccount(email: p.email, displayName: p.displayName), at: p.userId, in: Self.accounts)
            try claim(p.email, for: p.userId, model)
        case .emailChanged(let p):
            try release(p.oldEmail, of: p.userId, model)
            try claim(p.newEmail, for: p.userId, model)
            try model.update(AlbumsAccount.self, at: p.userId, in: Self.accounts) { account in
                account.email = p.newEmail
                account.emailVerified = false
            }
        case .emailVerified(let p):
            try model.update(AlbumsAccount.self, at: p.userId, in: Self.accounts) { account in
                if account.email == p.email { account.emailVerified = true }
            }
        case .profileUpdated(let p):
            try model.update(AlbumsAccount.self, at: p.userId, in: Self.accounts) { $0.displayName = p.displayName }
        case .erased(let p):
            try eraseAlbumsContent(of: p.userId, model)
            // Its groups no longer count it: no group shows or counts an erased member.
            for membership in try model.entries(String.self, in: Self.memberships, prefix: AlbumsKeys.userPrefix(p.userId)) {
                try removeMember(p.userId, from: membership.value, model)
            }
            guard let account = try model.value(AlbumsAccount.self, at: p.userId, in: Self.accounts) else { return }
            // Invitations of her address are sealed under a subject erased with her: a rebuild
            // reads them empty, so the live copy drops them too.
            if !account.email.isEmpty {
                for invited in try model.entries(String.self, in: Self.invited, prefix: AlbumsKeys.addressPrefix(account.email)) {
                    try removeInvitation(account.email, from: invited.value, model)
                }
            }
            try release(account.email, of: p.userId, model)
            try model.delete(p.userId, in: Self.accounts)
        default:
            break  // logins, logouts and password changes move no address; not even read
        }
    }

    private func claim(_ email: String, for userId: String, _ model: ReadModelWriter) throws {
        guard !email.isEmpty else { return }
        try model.put(userId, at: AlbumsKeys.address(email), in: Self.accountEmails)
    }

    /// Drops the address's link to `userId` only: the accounts decider never lets two accounts
    /// hold one address, but a link another account made is never this one's to drop.
    private func release(_ email: String, of userId: String, _ model: ReadModelWriter) throws {
        guard !email.isEmpty else { return }
        let key = AlbumsKeys.address(email)
        guard try model.value(String.self, at: key, in: Self.accountEmails) == userId else { return }
        try model.delete(key, in: Self.accountEmails)
    }
}
