import Synchronization

/// What queries made of the log's events for their readers (a review, an item of a house's
/// history, a news item opened from the read model's copy of its event), kept by the event's
/// position for the next reader of the same page.
///
/// Read models that keep positions instead of copies (ADR 0009) read each item of a page from the
/// log, decode it and open its sealed fields: for a page of 50 reviews that was a fifth of the
/// server's time (docs/benchmarks.md, issue 9). The log never changes a record,
/// so what is kept stays right until a user whose personal data it shows is erased. Erasures are
/// rare, so at the first sign of one (the keyring's `knownErasures` moved) everything kept is
/// forgotten. That needs no list of whom each value shows, which a new query could get wrong,
/// and no check per value: a page is one lock and one cast, not one of each per item.
/// Past `entriesMax` everything kept is forgotten at once too, as the keyring's opened texts are.
final class LogItemCache: Sendable {
    /// The values of one type by position; only touched under `kept`'s lock.
    private final class Values<Value>: @unchecked Sendable {
        var byPosition: [UInt64: Value] = [:]
    }

    private struct Kept {
        var byType: [ObjectIdentifier: AnyObject] = [:]
        var count = 0
        /// The keyring's `knownErasures` when what is kept was opened (or later, with no erasure
        /// between).
        var erasures = 0

        /// Forgets everything when an erasure may have come since it was kept.
        mutating func forgetAll(unless erasures: Int) {
            guard erasures != self.erasures else { return }
            byType.removeAll()
            count = 0
            self.erasures = erasures
        }
    }

    private let kept = Mutex(Kept())

    /// Values kept at most. A review is about 1–2 KB of heap, a history item a few hundred bytes.
    static var entriesMax: Int { 8_192 }

    /// How many values are kept now (tests).
    var count: Int { kept.withLock { $0.count } }

    /// The values kept for `positions` as `Value`s, nil where none is. `erasures` is the keyring's
    /// `knownErasures`, read before: when it moved, nothing kept is answered (or kept any longer).
    func values<Value: Sendable>(_ type: Value.Type, at positions: [UInt64], erasures: Int) -> [Value?] {
        kept.withLock { kept in
            kept.forgetAll(unless: erasures)
            guard let values = kept.byType[ObjectIdentifier(type)] as? Values<Value> else {
                return Array(repeating: nil, count: positions.count)
            }
            return positions.map { values.byPosition[$0] }
        }
    }

    /// Keeps `made`, opened after the keyring's `knownErasures` was `erasures`; unless what is
    /// kept already stands for another count (an erasure came between: they may show its user).
    func keep<Value: Sendable>(_ made: [UInt64: Value], erasures: Int) {
        guard !made.isEmpty else { return }
        kept.withLock { kept in
            guard kept.erasures == erasures else { return }
            if kept.count + made.count > Self.entriesMax {
                kept.byType.removeAll()
                kept.count = 0
            }
            let values: Values<Value>
            if let known = kept.byType[ObjectIdentifier(Value.self)] as? Values<Value> {
                values = known
            } else {
                values = Values()
                kept.byType[ObjectIdentifier(Value.self)] = values
            }
            for (position, value) in made where values.byPosition.updateValue(value, forKey: position) == nil {
                kept.count += 1
            }
        }
    }
}
