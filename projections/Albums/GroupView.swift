import Foundation

/// A group as its members see it: its name, owner, members and pending invitations.
public struct GroupView: Sendable, Equatable, Codable {
    /// The group's id.
    public var groupId: String
    /// Its name, as created.
    public var name: String
    /// Its creator.
    public var ownerId: String
    /// When it was created.
    public var createdAt: Date
    /// Its members (the creator included) and its pending invitations, by address (bytewise).
    public var members: [GroupMemberView]
}

/// A member of a group, or an invitation no account has claimed yet.
public struct GroupMemberView: Sendable, Equatable, Codable {
    /// A member's current e-mail, or the invited address, normalised.
    public var email: String
    /// The member's account; nil for a pending invitation.
    public var userId: String?
    /// The member's display name now; nil for a pending invitation.
    public var displayName: String?
}

/// A group in a member's list of groups.
public struct GroupSummary: Sendable, Equatable, Codable {
    /// The group's id.
    public var groupId: String
    /// Its name.
    public var name: String
    /// Its members and pending invitations: the entries of `GroupView.members`.
    public var memberCount: Int
}
