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
    /// The current avatar's image blob; nil when none was set.
    public var avatarBlobId: String?
    /// Whether the owner verified `email` (SPEC Accounts); a changed e-mail starts unverified.
    public var emailVerified: Bool = false
}

extension AccountProfile: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(email)
        writer.write(displayName)
        writer.write(firstName)
        writer.write(lastName)
        writer.write(username)
        writer.write(postcode)
        writer.write(avatarBlobId)
        writer.write(emailVerified)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        email = try reader.read()
        displayName = try reader.read()
        firstName = try reader.read()
        lastName = try reader.read()
        username = try reader.read()
        postcode = try reader.read()
        avatarBlobId = try reader.read()
        emailVerified = try reader.read()
    }
}
