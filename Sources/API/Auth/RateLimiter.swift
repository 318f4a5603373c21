import Foundation
import Synchronization

/// Counts events per key (a failed login for an e-mail or a client address, a reset request for
/// an account) in a sliding window, and holds a key back once it has `eventsMax` of them in the
/// window, until the oldest of those leaves it.
///
/// In memory, so a restart forgives everyone. Bounded: a key keeps at most `eventsMax` times, and
/// past `keysMax` keys those with nothing in the window go first, then the longest quiet ones.
final class RateLimiter: Sendable {
    /// Events a key may have in the window; the next attempt is held back.
    let eventsMax: Int
    /// The window events count in.
    let window: TimeInterval
    /// Keys tracked at most.
    let keysMax: Int
    private let times = Mutex<[String: [Date]]>([:])

    init(eventsMax: Int, window: TimeInterval, keysMax: Int) {
        precondition(eventsMax >= 1 && window > 0 && keysMax >= 8, "a limiter allows something and remembers something")
        self.eventsMax = eventsMax
        self.window = window
        self.keysMax = keysMax
    }

    /// Whole seconds until every one of `keys` may try again; nil when all may now.
    func retryAfter(_ keys: [String], now: Date) -> Int? {
        times.withLock { times in
            let waits = keys.compactMap { key -> TimeInterval? in
                let recent = (times[key] ?? []).filter { $0 > now.addingTimeInterval(-window) }
                guard recent.count >= eventsMax, let oldest = recent.first else { return nil }
                return oldest.addingTimeInterval(window).timeIntervalSince(now)
            }
            return waits.max().map { max(1, Int($0.rounded(.up))) }
        }
    }

    /// Records an event for each of `keys` at `now`.
    func record(_ keys: [String], now: Date) {
        times.withLock { times in
            for key in keys {
                var recent = times[key, default: []].filter { $0 > now.addingTimeInterval(-window) }
                recent.append(now)
                times[key] = Array(recent.suffix(eventsMax))
            }
            if times.count > keysMax { evict(&times, now: now) }
        }
    }

    /// Forgets `key`'s events (a successful login for an e-mail).
    func reset(_ key: String) {
        _ = times.withLock { $0.removeValue(forKey: key) }
    }

    /// Keys tracked now.
    var trackedKeys: Int { times.withLock { $0.count } }

    /// Drops keys down to seven eighths of `keysMax`, so the next eviction is that far away.
    private func evict(_ times: inout [String: [Date]], now: Date) {
        let cutoff = now.addingTimeInterval(-window)
        times = times.filter { ($0.value.last ?? .distantPast) > cutoff }
        let target = keysMax - keysMax / 8
        guard times.count > target else { return }
        // A flood of fresh keys: keep the most recently active ones.
        let kept = times.sorted { ($0.value.last ?? .distantPast) > ($1.value.last ?? .distantPast) }.prefix(target)
        times = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }
}
