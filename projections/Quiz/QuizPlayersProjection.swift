import Accounts
import EventLog
import EventSourcing
import Quiz

/// Every account with a username as a quiz player: stats by user id (`players`), user id by
/// username (`usernames`, keyed by the username's tag as the log stores it: a keyed hash of the
/// lowercased username, `AccountNames.usernameTags`), that key by user id (`usernameKeys`), the
/// pool random opponents are drawn from (`pool`, numbered, with its size in `poolSize`) and the
/// leaderboard (`leaderboard`, keyed in rank order). A username is kept as the log stores it,
/// sealed, and opened by `QuizQueries` when read (ADR 0018).
///
/// One projection because a username change and a finished game each touch several of these
/// tables, which must agree.
public struct QuizPlayersProjection: Projection {
    /// The stable name.
    public var name: String { "quiz.players" }
    /// Version 4: usernames sealed as the log stores them, looked up by their stored tag, the
    /// leaderboard's ties by user id (ADR 0018). Version 3: an erasure takes its player out at
    /// once (`+Erasure`). Version 2: values in the binary `ReadModelValue` form instead of JSON.
    public var version: Int { 4 }
    /// Its domains' events as stored: nothing opened.
    public var reads: [any DecodableDomainEvent.Type]? { [EventAsStored<AccountEvent>.self, EventAsStored<QuizEvent>.self] }
    /// See the type's comment.
    public var tables: [String] { [Self.players, Self.usernames, Self.usernameKeys, Self.pool, Self.poolSize, Self.leaderboard] }

    static let players = "players"
    static let usernames = "usernames"
    static let usernameKeys = "usernameKeys"
    static let pool = "pool"
    static let poolSize = "poolSize"
    static let leaderboard = "leaderboard"
    static let sizeKey = "size"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds usernames from the accounts and results from finished games; ignores the rest.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if let account = try event.decoded(as: EventAsStored<AccountEvent>.self)?.event {
            switch account {
            // An erased account's username reads as absent or empty (ADR 0004): it plays no more.
            case .registered(let p):
                if let username = p.username, !username.isEmpty { try setUsername(username, of: p.userId, tags: event.record.tags, model) }
            case .usernameChanged(let p) where !p.newUsername.isEmpty:
                try setUsername(p.newUsername, of: p.userId, tags: event.record.tags, model)
            case .erased:
                try applyErasure(account, model)
            default:
                break
            }
        } else if case .gameFinished(let p) = try event.decoded(as: EventAsStored<QuizEvent>.self)?.event {
            for result in p.results { try record(result.outcome, of: result.userId, model) }
        }
    }

    /// The key `usernames` finds the username an event claims under: its username tag as the log
    /// stores it, the one that is not `old` (a change also carries the released name's tag).
    static func usernameKey(in tags: [String], old: String?) -> String? {
        let names = tags.filter { $0.hasPrefix(AccountNames.usernameTags.prefix) }
        return names.first { $0 != old } ?? names.first
    }

    /// A new player joins the pool; a known one is renamed, and found by the new name only.
    /// `username` is as stored (sealed); `tags` the event's as stored, which name it keyed.
    private func setUsername(_ username: String, of userId: String, tags: [String], _ model: ReadModelWriter) throws {
        let old = try model.value(String.self, at: userId, in: Self.usernameKeys)
        // Every event claiming a username carries its tag (`AccountNames.usernameTag`).
        guard let key = Self.usernameKey(in: tags, old: old) else { return }
        guard var stats = try model.value(PlayerStats.self, at: userId, in: Self.players) else {
            let size = try model.value(Int.self, at: Self.sizeKey, in: Self.poolSize) ?? 0
            try model.put(userId, at: ReadModelKeys.padded(UInt64(size)), in: Self.pool)
            try model.put(size + 1, at: Self.sizeKey, in: Self.poolSize)
            try model.put(PlayerStats(userId: userId, username: username, poolIndex: size), at: userId, in: Self.players)
            try putUsernameKey(key, of: userId, model)
            return
        }
        // Only our own entry: the accounts decider released the old name, which may be taken since.
        if let old, try model.value(String.self, at: old, in: Self.usernames) == userId {
            try model.delete(old, in: Self.usernames)
        }
        stats.username = username  // the leaderboard's key does not hold it
        try model.put(stats, at: userId, in: Self.players)
        try putUsernameKey(key, of: userId, model)
    }

    private func putUsernameKey(_ key: String, of userId: String, _ model: ReadModelWriter) throws {
        try model.put(userId, at: key, in: Self.usernames)
        try model.put(key, at: userId, in: Self.usernameKeys)
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
