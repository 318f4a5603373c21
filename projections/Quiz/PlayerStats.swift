/// A quiz player: an account with a username, and the results of its finished games.
public struct PlayerStats: Codable, Sendable, Equatable {
    /// The account.
    public var userId: String
    /// The current username, as written.
    public var username: String
    /// Finished games: `won + lost + drawn`.
    public var played: Int = 0
    /// Games won.
    public var won: Int = 0
    /// Games lost.
    public var lost: Int = 0
    /// Games drawn.
    public var drawn: Int = 0
    /// The player's place in the pool opponents are drawn from.
    var poolIndex: Int
}
