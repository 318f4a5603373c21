import EventLog

extension QuizQueries {
    /// Game `gameId` as its challenger sees it: what an operator is shown (the as-of route),
    /// with no more than a player saw. nil when unknown.
    public func gameAsChallenger(_ gameId: String) throws(ReadModelError) -> GameView? {
        guard let game = try storedGame(gameId) else { return nil }
        return GameView(try opened(game), seat: 0)
    }
}
