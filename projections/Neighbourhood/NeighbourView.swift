/// A user as the neighbourhood shows one: authors, repliers, the sender of a notification.
public struct NeighbourView: Sendable, Equatable, Codable {
    /// The user's id.
    public var userId: String
    /// Their display name when they wrote what it is shown with.
    public var displayName: String
}
