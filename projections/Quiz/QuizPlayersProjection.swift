import Accounts
import EventLog
import EventSourcing
import Quiz

/// Every account with a username as a quiz player: stats by user id (`players`), user id by
/// lower-cased username (`usernames`), the pool random opponents are drawn from (`pool`,
/// numbered, with its size in `poolSize`) and the leaderboard (`leaderboard`, keyed in rank order).
///
/// One projection because a username change and a finished game each touch several of these
/// tables, which must agree.
public struct QuizPlayersProjection: Projection {
    /// The stable name.
    public var name: String { "quiz.players" }
    /// Version 3: an erasure takes its player out at once (`+Erasure`). Version 2: values in the
    /// binary `ReadModelValue` form instead of JSON.
    public var version: Int { 3 }
    /// Only its domains' events reach it.
    public var reads: [any DecodableDomainEvent.Type]? { [AccountEvent.self, EventAsStored<QuizEvent>.self] }
    /// See the type's comment.
    public var tables: [String] { [Self.players, Self.usernames, Self.pool, Self.poolSize, Self.leaderboard] }

    static let players = "players"
    static let usernames = "usernames"
    static let pool = "pool"
    static let poolSize = "poolSize"
    static let leaderboard = "leaderboard"
    static let sizeKey = "size"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds usernames from the accounts and results from finished games; ignores the rest.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if let account = try event.decoded(as: AccountEvent.self) {
            switch account {
            // An erased account's username reads as absent or empty (ADR 0004): it plays no more.
            case .registered(let p):
                if let username = p.username, !username.isEmpty { try setUsername(username, of: p.userId, model) }
            case .usernameChanged(let p) where !p.newUsername.isEmpty:
                try setUsername(p.newUsername, of: p.userId, model)
            case .erased:
                try applyErasure(account, model)
            default:
                break
            }
        } else if case .gameFinished(let p) = try event.decoded(as: EventAsStored<QuizEvent>.self)?.event {
            for result in p.results { try record(result.outcome, of: result.userId, model) }
        }
    }

    /// A new player joins the pool; a known one is renamed everywhere its username is a key.
    private func setUsername(_ username: String, of userId: String, _ model: ReadModelWriter) throws {
        guard var stats = try model.value(PlayerStats.self, at: userId, in: Self.players) else {
            let size = try model.value(Int.self, at: Self.sizeKey, in: Self.poolSize) ?? 0
            try model.put(userId, at: ReadModelKeys.padded(UInt64(size)), in: Self.pool)
            try model.put(size + 1, at: Self.sizeKey, in: Self.poolSize)
            try model.put(PlayerStats(userId: userId, username: username, poolIndex: size), at: userId, in: Self.players)
            try model.put(userId, at: username.lowercased(), in: Self.usernames)
            return
        }
        // Only our own entry: the accounts decider released the old name, which may be taken since.
        if try model.value(String.self, at: stats.username.lowercased(), in: Self.usernames) == userId {
            try model.delete(stats.username.lowercased(), in: Self.usernames)
        }
        try move(&stats, model) { $0.username = username }
        try model.put(userId, at: username.lowercased(), in: Self.usernames)
    }

    private func record(_ outcome: QuizOutcome, of userId: String, _ model: ReadModelWriter) throws {
        // Every player has a username, so a finished game's players are known here.
        guard var stats = try model.value(PlayerStats.self, at: userId, in: Self.players) else { return }
        try move(&stats, model) { stats in
            stats.played += 1
            switch outcome {
            case .won: stats.won += 1
            case .lost: stats.lost += 1
            case .draw: stats.drawn += 1
            }
        }
    }

    /// Applies `change` and keeps the player's leaderboard entry (players with a finished game)
    /// at the key its new stats give.
    private func move(_ stats: inout PlayerStats, _ model: ReadModelWriter, _ change: (inout PlayerStats) -> Void) throws {
        if stats.played > 0 { try model.delete(QuizKeys.leaderboard(stats), in: Self.leaderboard) }
        change(&stats)
        if stats.played > 0 { try model.put(stats.userId, at: QuizKeys.leaderboard(stats), in: Self.leaderboard) }
        try model.put(stats, at: stats.userId, in: Self.players)
    }
}
