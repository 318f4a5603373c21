import EventSourcing
import Synchronization

/// What queries made of the log's events for their readers (a review, an item of a house's
/// history), kept by position for the next reader of the same page.
///
/// Read models that keep positions instead of copies (ADR 0009) read each item of a page from the
/// log, decode it and open its sealed fields: for a page of 50 reviews that was a fifth of the
/// server's time (docs/benchmarks.md, issue 9, twentieth pass). The log never changes a record,
/// so what is kept stays right until a user whose personal data it shows is erased: every value
/// is kept with those users, and is not answered once the keyring knows one of them erased.
/// Past `entriesMax` everything kept is forgotten at once, as the keyring's opened texts are.
final class LogItemCache: Sendable {
    private struct Entry {
        let value: any Sendable
        /// The users whose personal data `value` shows, opened.
        let subjects: [String]
    }

    private let entries = Mutex<[UInt64: Entry]>([:])

    /// Values kept at most. A review is about 1–2 KB of heap, a history item a few hundred bytes.
    static var entriesMax: Int { 8_192 }

    /// How many values are kept now (tests).
    var count: Int { entries.withLock { $0.count } }

    /// The value kept for `position` as a `Value`, unless `keyring` knows one of its users erased
    /// (it is forgotten then).
    func value<Value: Sendable>(_ type: Value.Type, at position: UInt64, keyring: any PersonalDataKeyring) -> Value? {
        guard let entry = entries.withLock({ $0[position] }), let value = entry.value as? Value else { return nil }
        guard !entry.subjects.contains(where: keyring.isKnownErased) else {
            entries.withLock { _ = $0.removeValue(forKey: position) }
            return nil
        }
        return value
    }

    /// Keeps `value`, which shows the personal data of `subjects`, for `position`.
    func keep(_ value: some Sendable, at position: UInt64, subjects: [String]) {
        entries.withLock { entries in
            if entries.count >= Self.entriesMax { entries.removeAll() }
            entries[position] = Entry(value: value, subjects: subjects)
        }
    }
}
