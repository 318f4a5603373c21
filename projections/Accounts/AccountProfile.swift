/// An account's profile as `GET /v1/me` shows it.
public struct AccountProfile: Sendable, Equatable, Codable {
    /// The account's id.
    public var userId: String
    /// The normalised e-mail.
    public var email: String
    /// The name others see.
    public var displayName: String
    /// nil when none.
    public var firstName: String?
    /// nil when none.
    public var lastName: String?
    /// As its owner wrote it; nil when none.
    public var username: String?
    /// Normalised; nil when none.
    public var postcode: String?
    /// The avatar image; nil until the accounts domain records avatars.
    public var avatarBlobId: String?
}
