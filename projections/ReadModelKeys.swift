/// Building blocks of read-model keys. LMDB orders keys bytewise, so keys are composed for the
/// queries' prefix scans: fixed-width numbers, and ids escaped so one id's prefix never matches
/// another's keys.
enum ReadModelKeys {
    /// Digits in `invertedPosition` and `padded`: enough for `UInt64.max`.
    static let numberDigits = 20

    /// `UInt64.max - position`, zero-padded, so that a later position sorts first.
    static func invertedPosition(_ position: UInt64) -> String {
        padded(UInt64.max - position)
    }

    /// `value` zero-padded to `numberDigits`, so that numbers sort as their keys do.
    static func padded(_ value: UInt64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: numberDigits - digits.count) + digits
    }

    /// An id as one key component. Ids are server-made UUIDs, but the deciders do not promise
    /// that, and an id holding `/` would make one prefix match another's keys: escaping `%` and
    /// `/` keeps keys one-to-one with the ids they are built from.
    static func component(_ id: String) -> String {
        // Bytes, not Characters: this runs for every key of every event.
        guard id.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "%") }) else { return id }
        return id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }
}
