import Accounts

/// What a login checks: the account an e-mail belongs to and its password hash.
public struct AccountCredentials: Sendable, Equatable {
    /// The account.
    public var userId: String
    /// The normalised e-mail the account logs in with.
    public var email: String
    /// bcrypt of the current password. Never leaves the service: no route returns it.
    public var passwordHash: PasswordHash
}

extension AccountCredentials: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(email)
        writer.write(passwordHash)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        email = try reader.read()
        passwordHash = try reader.read()
    }
}
