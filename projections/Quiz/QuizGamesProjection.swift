import EventLog
import EventSourcing
import Quiz

/// Every game's setup (`games`, by id), progress (`progress`, by id) and answers (`answers`, keyed
/// `<game>/<position>`), and each player's games newest first (`playerGames`, keyed
/// `<user>/<inverted position of the game's creation>` → id). The players' usernames are kept
/// as the log stores them, sealed: `QuizQueries` opens them when read.
public struct QuizGamesProjection: Projection {
    /// The stable name.
    public var name: String { "quiz.games" }
    /// Version 6: players' usernames as the log stores them (sealed), opened when read, so an
    /// erasure is the key's destruction and folds nothing here (ADR 0018). Version 5: an erasure
    /// renamed its player. Version 4: each answer a row of its own in `answers`, written without
    /// reading the game (it was a get and a put of `progress`). Version 3: values in the binary
    /// `ReadModelValue` form instead of JSON (version 2 moved progress out of the game row).
    public var version: Int { 6 }
    /// Its domain's events as stored: nothing opened (every quiz projection reads them so, so a
    /// batch decodes each once).
    public var reads: [any DecodableDomainEvent.Type]? { [EventAsStored<QuizEvent>.self] }
    /// See the type's comment.
    public var tables: [String] { [Self.games, Self.progress, Self.answers, Self.playerGames] }
    /// `answers`: `apply` only puts its entries, so they wait for the batch's end and are stored
    /// in key order.
    public var heldTables: Set<String> { [Self.answers] }

    static let games = "games"
    static let progress = "progress"
    static let answers = "answers"
    static let playerGames = "playerGames"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds game events; ignores questions and other domains.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard let quiz = try event.decoded(as: EventAsStored<QuizEvent>.self)?.event else { return }
        switch quiz {
        case .questionAdded:
            return
        case .gameCreated(let p):
            try model.put(GameSetup(p), at: p.gameId, in: Self.games)
            try model.put(GameProgress(p), at: p.gameId, in: Self.progress)
            for player in p.players {
                try model.put(p.gameId, at: QuizKeys.playerGame(user: player.userId, position: event.position), in: Self.playerGames)
            }
        case .answerGiven(let p):
            let answer = GivenAnswer(userId: p.userId, correct: p.correct, points: p.points)
            try model.put(answer, at: QuizKeys.answer(game: p.gameId, position: event.position), in: Self.answers)
        case .gameFinished(let p):
            try update(p.gameId, model) { progress in
                progress.results = p.results
                progress.finishedAt = p.finishedAt
            }
        case .resultSeen(let p):
            try update(p.gameId, model) { progress in
                guard let seat = progress.seat(of: p.userId) else { return }
                progress.resultSeen[seat] = true
            }
        }
    }

    /// Changes a game's progress; an event for a game not stored (the decider emits none) is ignored.
    private func update(_ gameId: String, _ model: ReadModelWriter, _ change: (inout GameProgress) -> Void) throws {
        try model.update(GameProgress.self, at: gameId, in: Self.progress, change)
    }
}
