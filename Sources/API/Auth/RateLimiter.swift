import Foundation
import Synchronization

/// Counts events per key (a failed login from an address, a reset request for an account) in a
/// sliding window, and holds a key back once it has `eventsMax` of them in the window, until the
/// oldest of those leaves it.
///
/// `reserve` checks and counts in one step, so simultaneous attempts cannot overshoot the limit:
/// an attempt takes its slot before the slow check (bcrypt) and gives it back if it succeeds.
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
    private let state = Mutex(State())

    /// Names the events one `reserve` or `record` counted, one per key; unique in the process.
    struct EventID: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    /// The slots one admitted attempt holds, one per key, until it is released.
    struct Reservation: Sendable, Equatable {
        fileprivate let keys: [String]
        /// The events that are the slots.
        let id: EventID
    }

    /// What `reserve` decided.
    enum Admission: Sendable, Equatable {
        /// The attempt may go ahead; it holds a slot of each key.
        case admitted(Reservation)
        /// Held back for this many whole seconds.
        case heldBack(retryAfterSeconds: Int)
    }

    private struct Event {
        var time: Date
        var id: EventID
    }

    private struct State {
        var events: [String: [Event]] = [:]

        /// Unique across limiters, so ids can be shared between them.
        func newID() -> EventID {
            EventID(value: RateLimiter.lastID.add(1, ordering: .relaxed).newValue)
        }
    }

    private static let lastID = Atomic<UInt64>(0)

    init(eventsMax: Int, window: TimeInterval, keysMax: Int) {
        precondition(eventsMax >= 1 && window > 0 && keysMax >= 8, "a limiter allows something and remembers something")
        self.eventsMax = eventsMax
        self.window = window
        self.keysMax = keysMax
    }

    /// Admits an attempt unless one of `keys` is held back, and then counts it for each of
    /// `keys` at `now` in the same step: the attempt's failure needs no further record.
    func reserve(_ keys: [String], now: Date) -> Admission {
        state.withLock { state in
            if let seconds = retryAfter(keys, in: state, now: now) { return .heldBack(retryAfterSeconds: seconds) }
            let id = state.newID()
            append(Event(time: now, id: id), to: keys, in: &state, now: now)
            return .admitted(Reservation(keys: keys, id: id))
        }
    }

    /// Gives back `reservation`'s slots: the attempt succeeded and is not a failure.
    func release(_ reservation: Reservation) {
        state.withLock { Self.remove([reservation.id], from: reservation.keys, in: &$0) }
    }

    /// Whole seconds until every one of `keys` may try again; nil when all may now.
    func retryAfter(_ keys: [String], now: Date) -> Int? {
        state.withLock { retryAfter(keys, in: $0, now: now) }
    }

    /// Records an event for each of `keys` at `now`, named `id` when given (to be forgotten
    /// together with the events of that id in another limiter).
    func record(_ keys: [String], now: Date, as id: EventID? = nil) {
        state.withLock { state in
            append(Event(time: now, id: id ?? state.newID()), to: keys, in: &state, now: now)
        }
    }

    /// Events of `key` in the window ending at `now` (at most `eventsMax`).
    func count(_ key: String, now: Date) -> Int {
        state.withLock { state in
            let cutoff = now.addingTimeInterval(-window)
            return (state.events[key] ?? []).count { $0.time > cutoff }
        }
    }

    /// Forgets `key`'s events.
    func reset(_ key: String) {
        _ = state.withLock { $0.events.removeValue(forKey: key) }
    }

    /// Forgets `key`'s events and, in each of `others`, the events counted together with them
    /// (by the same `reserve` or `record`), and nothing else of `others`. The ids forgotten.
    @discardableResult
    func reset(_ key: String, alsoFrom others: [String]) -> Set<EventID> {
        state.withLock { state in
            guard let forgotten = state.events.removeValue(forKey: key) else { return [] }
            let ids = Set(forgotten.map(\.id))
            Self.remove(ids, from: others, in: &state)
            return ids
        }
    }

    /// Forgets the events named `ids` of `keys`.
    func forget(_ ids: Set<EventID>, from keys: [String]) {
        guard !ids.isEmpty else { return }
        state.withLock { Self.remove(ids, from: keys, in: &$0) }
    }

    /// Keys tracked now.
    var trackedKeys: Int { state.withLock { $0.events.count } }

    private static func remove(_ ids: Set<EventID>, from keys: [String], in state: inout State) {
        for key in keys {
            guard var events = state.events[key] else { continue }
            events.removeAll { ids.contains($0.id) }
            state.events[key] = events.isEmpty ? nil : events
        }
    }

    private func retryAfter(_ keys: [String], in state: State, now: Date) -> Int? {
        let cutoff = now.addingTimeInterval(-window)
        let waits = keys.compactMap { key -> TimeInterval? in
            let recent = (state.events[key] ?? []).filter { $0.time > cutoff }
            guard recent.count >= eventsMax, let oldest = recent.first else { return nil }
            return oldest.time.addingTimeInterval(window).timeIntervalSince(now)
        }
        return waits.max().map { max(1, Int($0.rounded(.up))) }
    }

    private func append(_ event: Event, to keys: [String], in state: inout State, now: Date) {
        let cutoff = now.addingTimeInterval(-window)
        for key in keys {
            var recent = state.events[key, default: []].filter { $0.time > cutoff }
            recent.append(event)
            state.events[key] = Array(recent.suffix(eventsMax))
        }
        if state.events.count > keysMax { evict(&state.events, now: now) }
    }

    /// Drops keys down to seven eighths of `keysMax`, so the next eviction is that far away.
    private func evict(_ events: inout [String: [Event]], now: Date) {
        let cutoff = now.addingTimeInterval(-window)
        events = events.filter { ($0.value.last?.time ?? .distantPast) > cutoff }
        let target = keysMax - keysMax / 8
        guard events.count > target else { return }
        // A flood of fresh keys: keep the most recently active ones.
        let kept = events.sorted { ($0.value.last?.time ?? .distantPast) > ($1.value.last?.time ?? .distantPast) }.prefix(target)
        events = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }
}
