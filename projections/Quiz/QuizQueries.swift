import Accounts
import EventLog
import EventSourcing
import Foundation
import Quiz

/// What the quiz routes ask of the read models. Queries read the served copies as they are; a
/// command's handler waits with `ProjectionEngine.waitUntilProjected` before answering, which is
/// what makes the next query read its own writes.
public struct QuizQueries<Store: EventStore>: Sendable {
    /// The engine the quiz projections are registered with.
    public let engine: ProjectionEngine<Store>

    /// Queries over `engine`, which must run `QuizProjections.all`.
    public init(engine: ProjectionEngine<Store>) {
        let registered = Set(engine.projections.map(\.name))
        precondition(QuizProjections.all.allSatisfy { registered.contains($0.name) }, "quiz projections are registered")
        self.engine = engine
    }

    /// The number of bank questions.
    public func questionCount() throws(ReadModelError) -> Int {
        try engine.read(QuizProjections.questions) {
            try $0.value(Int.self, at: QuizQuestionsProjection.countKey, in: QuizQuestionsProjection.size) ?? 0
        }
    }

    /// `count` distinct questions drawn at random (all of them, shuffled, when the bank is smaller).
    public func randomQuestions(_ count: Int, using generator: inout some RandomNumberGenerator) throws(ReadModelError) -> [StoredQuestion] {
        let size = try questionCount()
        // Numbers are dense (0..<size), so drawing numbers draws questions; shuffling the range
        // costs O(size), which the bank's size keeps small, and never draws one twice.
        let numbers = Array((0..<size).shuffled(using: &generator).prefix(count))
        return try engine.read(QuizProjections.questions) { reader in
            try numbers.compactMap {
                try reader.value(StoredQuestion.self, at: ReadModelKeys.padded(UInt64($0)), in: QuizQuestionsProjection.questions)
            }
        }
    }

    /// The player called `username` (any case); nil when nobody is. Found by the username's tag
    /// as the log stores it (keyed with the engine's keyring), as `usernames` keeps it.
    public func player(username: String) throws(ReadModelError) -> PlayerStats? {
        let normalised = AccountRules.normaliseUsername(username)
        let key = EventSealer(keyring: engine.personalData).keyed(AccountNames.usernameTags, normalised)
            ?? AccountNames.usernameTags.plain(normalised)
        return try opened(engine.read(QuizProjections.players) { reader in
            guard let userId = try reader.value(String.self, at: key, in: QuizPlayersProjection.usernames) else { return nil }
            return try reader.value(PlayerStats.self, at: userId, in: QuizPlayersProjection.players)
        })
    }

    /// A player other than `userId`, drawn at random from everyone with a username; nil when
    /// there is nobody else.
    public func randomOpponent(for userId: String, using generator: inout some RandomNumberGenerator) throws(ReadModelError) -> PlayerStats? {
        try opened(engine.read(QuizProjections.players) { reader in
            let size = try reader.value(Int.self, at: QuizPlayersProjection.sizeKey, in: QuizPlayersProjection.poolSize) ?? 0
            let mine = try reader.value(PlayerStats.self, at: userId, in: QuizPlayersProjection.players)?.poolIndex
            let others = size - (mine == nil ? 0 : 1)
            guard others > 0 else { return nil }
            // Draw among the others: skip over the caller's own number.
            var index = Int.random(in: 0..<others, using: &generator)
            if let mine, index >= mine { index += 1 }
            guard let opponent = try reader.value(String.self, at: ReadModelKeys.padded(UInt64(index)), in: QuizPlayersProjection.pool) else { return nil }
            return try reader.value(PlayerStats.self, at: opponent, in: QuizPlayersProjection.players)
        })
    }

    /// Game `gameId` as `userId` sees it; nil when unknown or when `userId` does not play in it.
    public func game(_ gameId: String, viewer userId: String) throws(ReadModelError) -> GameView? {
        guard let game = try storedGame(gameId), let seat = game.setup.seat(of: userId) else { return nil }
        return GameView(try opened(game), seat: seat)
    }

    /// `userId`'s points so far in game `gameId`; nil when unknown or not theirs. Reads only the
    /// small progress row and the answers, not the setup: the answer route asks it on every
    /// answer.
    public func points(in gameId: String, of userId: String) throws(ReadModelError) -> Int? {
        try engine.read(QuizProjections.games) { reader in
            guard let progress = try reader.value(GameProgress.self, at: gameId, in: QuizGamesProjection.progress),
                  progress.seat(of: userId) != nil else { return nil }
            return try Self.answers(gameId, reader).reduce(0) { $0 + ($1.userId == userId ? $1.points : 0) }
        }
    }

    /// The viewer's next question of game `gameId`; nil when the viewer answered them all.
    /// Call it for games the viewer plays in (`game(_:viewer:)` says).
    public func nextQuestion(_ gameId: String, viewer userId: String) throws(ReadModelError) -> NextQuestion? {
        guard let game = try storedGame(gameId), let seat = game.setup.seat(of: userId) else { return nil }
        let index = game.answers[seat].count
        guard index < game.setup.questions.count else { return nil }
        let question = game.setup.questions[index]
        return NextQuestion(index: index, text: question.text, answers: game.setup.answerOrders[seat][index].map { question.answers[$0] })
    }

    /// A page of `userId`'s games, newest first: up to `limit` (50 when nil) after `cursor`.
    public func games(of userId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> GamePage {
        let prefix = QuizKeys.playerGamesPrefix(userId)
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            return try engine.read(QuizProjections.games) { reader in
                let page = try reader.page(String.self, in: QuizGamesProjection.playerGames, prefix: prefix, request)
                let games = try page.entries.compactMap { entry -> GameView? in
                    guard let game = try Self.storedGame(entry.value, reader), let seat = game.setup.seat(of: userId) else { return nil }
                    return GameView(try opened(game), seat: seat)
                }
                return GamePage(games: games, next: page.next)
            }
        } catch {
            throw .readModel(error)
        }
    }

    /// The best `limit` (50 when nil) players with a finished game: most wins, then best win ratio.
    public func leaderboard(limit: Int?) throws(ListQueryError) -> [PlayerStats] {
        let items = try ListPage.items(limit)
        do {
            let board = try engine.read(QuizProjections.players) { reader in
                try reader.entries(String.self, in: QuizPlayersProjection.leaderboard, limit: items).compactMap {
                    try reader.value(PlayerStats.self, at: $0.value, in: QuizPlayersProjection.players)
                }
            }
            var opened: [PlayerStats] = []
            for stats in board { if let player = try self.opened(stats) { opened.append(player) } }
            return opened
        } catch {
            throw .readModel(error)
        }
    }

    /// `stats` with its username opened, as `players` keeps it sealed (ADR 0018).
    func opened(_ stats: PlayerStats?) throws(ReadModelError) -> PlayerStats? {
        guard var opened = stats else { return nil }
        opened.username = try openedUsername(opened.username, of: opened.userId)
        return opened
    }

    private func openedUsername(_ stored: String, of userId: String) throws(ReadModelError) -> String {
        try engine.opened(stored, of: userId, erased: PersonalDataSeal.deletedUser, what: "a player's username")
    }

    /// `game` with its players' usernames opened, as `games` keeps them sealed (ADR 0018): an
    /// erased player's reads as `PersonalDataSeal.deletedUser` from her key's destruction on.
    func opened(_ game: StoredGame) throws(ReadModelError) -> StoredGame {
        var opened = game
        for index in opened.setup.players.indices {
            let player = opened.setup.players[index]
            opened.setup.players[index].username = try openedUsername(player.username, of: player.userId)
        }
        return opened
    }

    /// The game as `games` stores it, its usernames sealed: `opened` before they are shown.
    func storedGame(_ gameId: String) throws(ReadModelError) -> StoredGame? {
        try engine.read(QuizProjections.games) { try Self.storedGame(gameId, $0) }
    }

    /// The game's setup, progress and answers, from one snapshot.
    private static func storedGame(_ gameId: String, _ reader: ReadModelReader) throws -> StoredGame? {
        guard let setup = try reader.value(GameSetup.self, at: gameId, in: QuizGamesProjection.games),
              let progress = try reader.value(GameProgress.self, at: gameId, in: QuizGamesProjection.progress) else { return nil }
        return StoredGame(setup: setup, progress: progress, given: try answers(gameId, reader))
    }

    /// The game's answers in the order they came. The decider bounds a game's questions, so
    /// reading them all is bounded too.
    private static func answers(_ gameId: String, _ reader: ReadModelReader) throws -> [GivenAnswer] {
        try reader.entries(GivenAnswer.self, in: QuizGamesProjection.answers, prefix: QuizKeys.answersPrefix(gameId), limit: .max).map(\.value)
    }
}
