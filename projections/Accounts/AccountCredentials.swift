import Accounts

/// What a login checks: the account an e-mail belongs to and its password hash.
public struct AccountCredentials: Sendable, Equatable, Codable {
    /// The account.
    public var userId: String
    /// The normalised e-mail the account logs in with.
    public var email: String
    /// bcrypt of the current password. Never leaves the service: no route returns it.
    public var passwordHash: PasswordHash
}
