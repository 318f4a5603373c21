/// The quiz read models, for the composition root to register with a `ProjectionEngine` and for
/// `QuizQueries` to read.
public enum QuizProjections {
    /// The question bank.
    public static let questions = QuizQuestionsProjection()
    /// Games and each player's games.
    public static let games = QuizGamesProjection()
    /// Players, the opponent pool, stats and the leaderboard.
    public static let players = QuizPlayersProjection()

    /// All of them.
    public static var all: [any Projection] { [questions, games, players] }
}
