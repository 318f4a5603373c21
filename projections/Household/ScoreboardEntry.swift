/// One current member's standing on a house's scoreboard.
public struct ScoreboardEntry: Sendable, Equatable, Codable {
    /// The member's user id.
    public var userId: String
    /// Their display name.
    public var displayName: String
    /// Every point they earned in this house, also before leaving and rejoining.
    public var points: Int
}
