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

extension PlayerStats: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(username)
        writer.write(played)
        writer.write(won)
        writer.write(lost)
        writer.write(drawn)
        writer.write(poolIndex)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        username = try reader.read()
        played = try reader.read()
        won = try reader.read()
        lost = try reader.read()
        drawn = try reader.read()
        poolIndex = try reader.read()
    }
}
