/// A player as a game knows them: the account and its username when the game was created.
public struct QuizPlayer: Codable, Sendable, Equatable, Hashable {
    /// The account.
    public var userId: String
    /// The username, as written.
    public var username: String

    /// Player `userId` called `username`.
    public init(userId: String, username: String) {
        self.userId = userId
        self.username = username
    }
}

/// How a finished game ended for one player.
public enum QuizOutcome: String, Codable, Sendable, Equatable {
    /// More points than the opponent.
    case won
    /// Fewer points than the opponent.
    case lost
    /// As many points as the opponent.
    case draw
}
