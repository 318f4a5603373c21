import Foundation

/// A group as its members see it: its name, owner and member addresses, each joined to the
/// account that holds the address now, if any.
public struct GroupView: Sendable, Equatable, Codable {
    /// The group's id.
    public var groupId: String
    /// Its name, as created.
    public var name: String
    /// Its creator.
    public var ownerId: String
    /// When it was created.
    public var createdAt: Date
    /// Its members by address (bytewise), the creator's included.
    public var members: [GroupMemberView]
}

/// A member of a group: an invited (or the creator's) address, and the account holding it now.
public struct GroupMemberView: Sendable, Equatable, Codable {
    /// The normalised address.
    public var email: String
    /// The account whose current e-mail this is; nil while none is (not registered yet, or it
    /// moved to another address).
    public var userId: String?
    /// That account's display name now; nil with `userId`.
    public var displayName: String?
}

/// A group in a member's list of groups.
public struct GroupSummary: Sendable, Equatable, Codable {
    /// The group's id.
    public var groupId: String
    /// Its name.
    public var name: String
    /// Its member addresses, registered or not.
    public var memberCount: Int
}
