import Accounts

/// Keeps the session cache current: a session changes only when it ends (logout, a password
/// change or reset revoking it), and a new one is never cached before it is read.
struct SessionCacheObserver: ProjectionObserver {
    let cache: ReadModelCache<TokenHash, AccountSession>

    func committed(_ events: [ProjectedEvent]) {
        var ended: [TokenHash] = []
        for event in events {
            // An event that does not decode fails its projections, which report it; here it
            // can only mean "not a session end".
            if case let .sessionEnded(p)? = try? event.decoded(as: AccountEvent.self) { ended.append(p.tokenHash) }
        }
        if !ended.isEmpty { cache.invalidate(ended) }
    }

    func swapped(_ name: String) {
        if name == AccountProjections.sessions.name { cache.invalidateAll() }
    }
}
