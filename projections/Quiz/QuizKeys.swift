/// Keys of the quiz read models.
enum QuizKeys {
    /// `<user>/` starts every key of one player's games.
    static func playerGamesPrefix(_ userId: String) -> String {
        ReadModelKeys.component(userId) + "/"
    }

    /// `<user>/<inverted position>`: a player's games, newest first.
    static func playerGame(user userId: String, position: UInt64) -> String {
        ReadModelKeys.newestFirst(playerGamesPrefix(userId), position)
    }

    /// `<game>/` starts every key of one game's answers.
    static func answersPrefix(_ gameId: String) -> String {
        ReadModelKeys.component(gameId) + "/"
    }

    /// `<game>/<position>`: a game's answers in the order they came.
    static func answer(game gameId: String, position: UInt64) -> String {
        answersPrefix(gameId) + ReadModelKeys.padded(position)
    }

    /// The leaderboard order as a key: most wins, then best win ratio, then user id (not the
    /// username, which `players` keeps sealed: ADR 0018). Wins and the ratio (in millionths) are
    /// inverted so that the best sorts first.
    static func leaderboard(_ stats: PlayerStats) -> String {
        let ratio = stats.played == 0 ? 0 : UInt64(stats.won) * 1_000_000 / UInt64(stats.played)
        return ReadModelKeys.padded(UInt64.max - UInt64(stats.won)) + "/" + ReadModelKeys.padded(1_000_000 - ratio)
            + "/" + ReadModelKeys.component(stats.userId)
    }
}
