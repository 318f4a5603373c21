import Foundation

extension AccountDecider {
    /// Validation first (every field at once), then uniqueness: a malformed e-mail is reported
    /// as malformed, not as taken.
    /// A registration with a verification token mails it in the same append.
    static func decideRegister(_ command: AccountCommand.Register, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard state.accounts[command.userId] == nil else { throw .accountAlreadyExists }
        var fields = FieldValidator()
        let email = fields.email(command.email)
        let displayName = fields.displayName(command.displayName)
        let firstName = command.firstName.flatMap { fields.personName("firstName", $0) }
        let lastName = command.lastName.flatMap { fields.personName("lastName", $0) }
        let username = command.username.map { fields.username($0) }
        let postcode = command.postcode.flatMap { fields.postcode($0) }
        fields.passwordLength("password", command.passwordLength)
        try fields.check()

        if state.isEmailTaken(email, byOtherThan: command.userId) { throw .emailTaken }
        if let username, state.isUsernameTaken(username, byOtherThan: command.userId) { throw .usernameTaken }
        let registered = AccountEvent.registered(.init(
            userId: command.userId, email: email, passwordHash: command.passwordHash, displayName: displayName,
            firstName: firstName, lastName: lastName, username: username, postcode: postcode
        ))
        guard let token = command.verification else { return [registered] }
        return [registered, try verificationRequested(token, for: command.userId, email: email, nil, now: now)]
    }

    /// Emits only what changes: `emailChanged`, `usernameChanged` (a change of case counts: it
    /// is how the name is shown), and one `profileUpdated` with all profile fields as they end up.
    /// A new e-mail is unverified: its verification token, when given, is mailed to it at once.
    static func decideUpdateProfile(_ command: AccountCommand.UpdateProfile, _ state: AccountState, now: Date) throws(AccountError) -> [AccountEvent] {
        guard let account = state.accounts[command.userId] else { throw .accountNotFound }
        var fields = FieldValidator()
        let email = command.email.map { fields.email($0) }
        let username = command.username.map { fields.username($0) }
        let displayName = command.displayName.map { fields.displayName($0) }
        // Double optionals: nil keeps the field, .some(nil) removes it.
        let firstName = command.firstName.map { fields.personName("firstName", $0) }
        let lastName = command.lastName.map { fields.personName("lastName", $0) }
        let postcode = command.postcode.map { fields.postcode($0) }
        try fields.check()

        let userId = command.userId
        var events: [AccountEvent] = []
        if let email, email != account.email {
            if state.isEmailTaken(email, byOtherThan: userId) { throw .emailTaken }
            events.append(.emailChanged(.init(userId: userId, oldEmail: account.email, newEmail: email)))
            if let token = command.verification {
                events.append(try verificationRequested(token, for: userId, email: email, account, now: now))
            }
        }
        if let username, username != account.username {
            if state.isUsernameTaken(username, byOtherThan: userId) { throw .usernameTaken }
            events.append(.usernameChanged(.init(userId: userId, oldUsername: account.username, newUsername: username)))
        }
        let profile = AccountEvent.ProfileUpdated(
            userId: userId, displayName: displayName ?? account.displayName,
            firstName: firstName ?? account.firstName, lastName: lastName ?? account.lastName,
            postcode: postcode ?? account.postcode
        )
        let current = AccountEvent.ProfileUpdated(
            userId: userId, displayName: account.displayName,
            firstName: account.firstName, lastName: account.lastName, postcode: account.postcode
        )
        if profile != current { events.append(.profileUpdated(profile)) }
        return events
    }
}
