import Quiz

extension MemberTopic {
    /// `game:<gameId>`: every event of a quiz game, for its two players (an opponent's answer,
    /// the finish). Players never change, so nothing rechecks it. The game routes' own check:
    /// 404 `game_not_found` for anyone but the two players.
    static let game = MemberTopic(name: "game", domain: QuizEvent.domain) { gameId, userId, api in
        guard try api.runtime.quiz.game(gameId, viewer: userId) != nil else { throw QuizRoutes.gameNotFound }
    }
}
