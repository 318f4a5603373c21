import Synchronization

/// A bounded in-memory copy of read-model values that a `ProjectionObserver` keeps current, so a
/// hot lookup (a bearer token's session, a house's members) needs no read transaction.
///
/// Filled on a miss from the read model, dropped by `invalidate` when an event changes a value.
/// A miss may race an invalidation: the value read from an older snapshot must not be stored
/// after the event that changed it was announced, so every invalidation bumps a generation, and
/// a miss stores its value only if the generation it started under is still current.
/// Absent values are never cached, so a key that appears later is seen at once.
final class ReadModelCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entries {
        var values: [Key: Value] = [:]
        var generation: UInt64 = 0
        /// The keyring's `knownErasures` the values were opened under (`value(_:openedUnder:orRead:)`).
        var erasures = 0
    }

    /// Values held at most; past it the cache starts over empty (a cheap bound that costs one
    /// read per key afterwards).
    let entriesMax: Int
    private let entries = Mutex(Entries())

    init(entriesMax: Int) {
        precondition(entriesMax > 0, "a cache holds at least one value")
        self.entriesMax = entriesMax
    }

    /// The value of `key`: from memory, else from `read`, which is remembered when present.
    ///
    /// `erasures`, for values holding personal data opened with a keyring, is the keyring's
    /// `knownErasures` read before `read` opens anything: once a caller passes more, everything
    /// held is forgotten, and a value opened under fewer is not remembered. So a name opened
    /// before an erasure is never answered after the erasure's key destruction, however and
    /// whenever that reached the keyring (ADR 0018), as `LogItemCache` does for the log's items.
    func value(_ key: Key, openedUnder erasures: Int = 0, orRead read: () throws(ReadModelError) -> Value?) throws(ReadModelError) -> Value? {
        let (cached, generation) = entries.withLock { entries in
            if erasures > entries.erasures {
                entries.erasures = erasures
                entries.generation &+= 1
                entries.values.removeAll()
            }
            return (erasures == entries.erasures ? entries.values[key] : nil, entries.generation)
        }
        if let cached { return cached }
        guard let value = try read() else { return nil }
        entries.withLock { entries in
            guard entries.generation == generation, entries.erasures == erasures else { return }
            if entries.values.count >= entriesMax { entries.values.removeAll(keepingCapacity: true) }
            entries.values[key] = value
        }
        return value
    }

    /// Forgets `keys`' values: an event changed them.
    func invalidate(_ keys: some Sequence<Key>) {
        entries.withLock { entries in
            entries.generation &+= 1
            for key in keys { entries.values[key] = nil }
        }
    }

    /// Forgets everything.
    func invalidateAll() {
        entries.withLock { entries in
            entries.generation &+= 1
            entries.values.removeAll()
        }
    }

    /// Values held now.
    var count: Int { entries.withLock { $0.values.count } }
}
