import Quiz

extension MemberTopic {
    /// `game:<gameId>`: the events of a quiz game, for its two players (an opponent's answer,
    /// the finish). Players never change, so nothing rechecks it. The game routes' own check:
    /// 404 `game_not_found` for anyone but the two players.
    ///
    /// Whether a player has seen the result is theirs alone (each sees only their own
    /// `resultSeen`), so that event reaches only the player who saw it: its actor, as the route
    /// appends it for the caller.
    static let game = MemberTopic(
        name: "game", domain: QuizEvent.domain,
        admits: { event, userId in event.type != QuizEvent.ResultSeen.typeName || event.actor == userId }
    ) { gameId, userId, api in
        guard try api.runtime.quiz.game(gameId, viewer: userId) != nil else { throw QuizRoutes.gameNotFound }
    }
}
