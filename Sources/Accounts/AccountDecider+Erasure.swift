import Foundation

extension AccountDecider {
    /// Every session still working ends (one `sessionEnded` each, as a reset does, so the session
    /// read model and the auth cache need no other rule), then `erased` releases the account's
    /// e-mail and username tags, naming the other subjects whose keys go with the account.
    /// Erasing an erased or unknown account is `accountNotFound`.
    static func decideErase(_ command: AccountCommand.Erase, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        let ended = account.sessions.filter { $0.value > now }.keys.sorted { $0.hex < $1.hex }
            .map { AccountEvent.sessionEnded(.init(userId: command.userId, tokenHash: $0)) }
        var released = [AccountNames.emailTag(account.email)]
        if let username = account.username { released.append(AccountNames.usernameTag(username)) }
        let others = command.alsoErasing.isEmpty ? nil : command.alsoErasing
        return ended + [.erased(.init(userId: command.userId, releasedTags: released, erasedSubjects: others))]
    }
}
