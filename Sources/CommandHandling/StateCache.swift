import EventSourcing
import Synchronization

/// Folded decider states by boundary, so a long boundary is not re-read for every command.
///
/// An entry is a state and the position it was folded up to. The log is append-only, so an entry
/// never goes stale: the handler reads only the boundary's events after that position. It is
/// bounded: past `entriesMax` the least recently used eighth is dropped.
final class StateCache: Sendable {
    private struct Key: Hashable {
        let decider: ObjectIdentifier
        let boundary: Boundary
    }

    private struct Entry {
        let state: any Sendable
        let position: UInt64
        var lastUsed: UInt64
    }

    private struct Entries {
        var byKey: [Key: Entry] = [:]
        var tick: UInt64 = 0
    }

    let entriesMax: Int
    private let entries = Mutex(Entries())

    init(entriesMax: Int) {
        precondition(entriesMax > 0, "a cache holds at least one entry")
        self.entriesMax = entriesMax
    }

    func state<D: Decider>(of decider: D.Type, _ boundary: Boundary) -> (state: D.State, position: UInt64)? {
        entries.withLock { entries in
            let key = Key(decider: ObjectIdentifier(decider), boundary: boundary)
            guard var entry = entries.byKey[key], let state = entry.state as? D.State else { return nil }
            entries.tick += 1
            entry.lastUsed = entries.tick
            entries.byKey[key] = entry
            return (state, entry.position)
        }
    }

    func store<D: Decider>(_ state: D.State, at position: UInt64, of decider: D.Type, _ boundary: Boundary) {
        entries.withLock { entries in
            let key = Key(decider: ObjectIdentifier(decider), boundary: boundary)
            // Concurrent commands may finish out of order; never replace a newer fold with an older one.
            if let existing = entries.byKey[key], existing.position > position { return }
            entries.tick += 1
            entries.byKey[key] = Entry(state: state, position: position, lastUsed: entries.tick)
            if entries.byKey.count > entriesMax {
                let evicted = entries.byKey.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(max(1, entriesMax / 8))
                for (key, _) in evicted { entries.byKey[key] = nil }
            }
        }
    }

    var count: Int { entries.withLock { $0.byKey.count } }
}
