import EventLog
import Quiz

/// Every game (`games`, by id) and each player's games newest first (`playerGames`, keyed
/// `<user>/<inverted position of the game's creation>` → game id).
public struct QuizGamesProjection: Projection {
    /// The stable name.
    public var name: String { "quiz.games" }
    /// Version 1.
    public var version: Int { 1 }
    /// See the type's comment.
    public var tables: [String] { [Self.games, Self.playerGames] }

    static let games = "games"
    static let playerGames = "playerGames"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds game events; ignores questions and other domains.
    public func apply(_ event: RecordedEvent, to model: ReadModelWriter) throws {
        guard let quiz = try event.quizEvent() else { return }
        switch quiz {
        case .questionAdded:
            return
        case .gameCreated(let p):
            try model.put(StoredGame(p), at: p.gameId, in: Self.games)
            for player in p.players {
                try model.put(p.gameId, at: QuizKeys.playerGame(user: player.userId, position: event.position), in: Self.playerGames)
            }
        case .answerGiven(let p):
            try update(p.gameId, model) { game in
                guard let seat = game.seat(of: p.userId) else { return }
                game.answers[seat].append(.init(answer: p.answer, correct: p.correct, points: p.points))
            }
        case .gameFinished(let p):
            try update(p.gameId, model) { game in
                game.results = p.results
                game.finishedAt = p.finishedAt
            }
        case .resultSeen(let p):
            try update(p.gameId, model) { game in
                guard let seat = game.seat(of: p.userId) else { return }
                game.resultSeen[seat] = true
            }
        }
    }

    /// Changes a stored game; an event for a game not stored (the decider emits none) is ignored.
    private func update(_ gameId: String, _ model: ReadModelWriter, _ change: (inout StoredGame) -> Void) throws {
        guard var game = try model.value(StoredGame.self, at: gameId, in: Self.games) else { return }
        change(&game)
        try model.put(game, at: gameId, in: Self.games)
    }
}
