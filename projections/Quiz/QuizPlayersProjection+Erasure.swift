import Accounts

extension QuizPlayersProjection {
    /// An erased user plays no more and leaves the leaderboard in the batch that projects
    /// `account.erased`, as a rebuild with her key destroyed leaves her (her registration then
    /// reads without a username, so she was never a player): the erasure's answer already shows
    /// it (ADR 0010). Her number in the pool goes to the last player's, so the pool stays
    /// numbered without gaps for the random draw.
    func applyErasure(_ event: AccountEvent, _ model: ReadModelWriter) throws {
        guard case .erased(let p) = event, let stats = try model.value(PlayerStats.self, at: p.userId, in: Self.players) else { return }
        if let key = try model.value(String.self, at: p.userId, in: Self.usernameKeys) {
            if try model.value(String.self, at: key, in: Self.usernames) == p.userId { try model.delete(key, in: Self.usernames) }
            try model.delete(p.userId, in: Self.usernameKeys)
        }
        if stats.played > 0 { try model.delete(QuizKeys.leaderboard(stats), in: Self.leaderboard) }
        try model.delete(p.userId, in: Self.players)
        let size = try model.value(Int.self, at: Self.sizeKey, in: Self.poolSize) ?? 0
        guard size > 0 else { return }
        let last = ReadModelKeys.padded(UInt64(size - 1))
        if stats.poolIndex != size - 1, let moved = try model.value(String.self, at: last, in: Self.pool) {
            try model.put(moved, at: ReadModelKeys.padded(UInt64(stats.poolIndex)), in: Self.pool)
            try model.update(PlayerStats.self, at: moved, in: Self.players) { $0.poolIndex = stats.poolIndex }
        }
        try model.delete(last, in: Self.pool)
        try model.put(size - 1, at: Self.sizeKey, in: Self.poolSize)
    }
}
