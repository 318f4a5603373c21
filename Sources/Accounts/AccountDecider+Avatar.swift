import EventSourcing

extension AccountDecider {
    /// The same avatar again changes nothing, so a retried upload appends nothing.
    static func decideSetAvatar(_ command: AccountCommand.SetAvatar, _ state: AccountState) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        var checks = FieldChecks()
        checks.blobId(command.blobId)
        try checks.check { AccountError.validationFailed($0) }
        guard account.avatarBlobId != command.blobId else { return [] }
        return [.avatarChanged(.init(userId: command.userId, blobId: command.blobId))]
    }
}
