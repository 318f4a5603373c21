import EventLog
import Quiz

/// `game:<gameId>`: every event of a quiz game, for its two players (an opponent's answer, the
/// finish). Players never change, so nothing rechecks it.
struct GameTopic: LiveTopicKind {
    let name = "game"
    let takesID = true
    let recheckedOn: Set<String> = []

    func keys(of event: RecordedEvent) -> [String] {
        guard LiveTopics.isOf(event, domain: QuizEvent.domain) else { return [] }
        return LiveTopics.tagValues(event, prefix: "game:").map(QuizEvent.gameTag)
    }

    /// The game routes' own check: 404 `game_not_found` for anyone but the two players.
    func grant(_ id: String?, to caller: AuthSession, api: LogbookAPI) throws -> LiveGrant {
        let gameId = id ?? ""
        guard try api.runtime.quiz.game(gameId, viewer: caller.userId) != nil else { throw QuizRoutes.gameNotFound }
        return LiveGrant(topic: "game:\(gameId)", kind: name, keys: [QuizEvent.gameTag(gameId)]) { true }
    }
}
