import Accounts
import EventLog
import EventSourcing
import Quiz

/// Every game's setup (`games`, by id), progress (`progress`, by id) and answers (`answers`, keyed
/// `<game>/<position>`), and each player's games newest first (`playerGames`, keyed
/// `<user>/<inverted position of the game's creation>` → id).
public struct QuizGamesProjection: Projection {
    /// The stable name.
    public var name: String { "quiz.games" }
    /// Version 5: an erasure renames its player at once (`+Erasure`). Version 4: each answer a row of its own in `answers`, written without reading the
    /// game (it was a get and a put of `progress`). Version 3: values in the binary
    /// `ReadModelValue` form instead of JSON (version 2 moved progress out of the game row).
    public var version: Int { 5 }
    /// Its domain's events, and the accounts' erasures.
    public var reads: [any DecodableDomainEvent.Type]? { [QuizEvent.self, AccountEvent.self] }
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

    /// Folds game events and an account's erasure; ignores questions and other domains.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if let account = try event.decoded(as: AccountEvent.self) { return try applyErasure(account, model) }
        guard let quiz = try event.decoded(as: QuizEvent.self) else { return }
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
