/// Building blocks of read-model keys. LMDB orders keys bytewise, so keys are composed for the
/// queries' prefix scans: fixed-width numbers, and ids escaped so one id's prefix never matches
/// another's keys.
///
/// They run for every key of every event, so they work on bytes: `String(value)` padded by
/// string concatenation and a `Character` scan for escapes were 5% of an albums rebuild's
/// apply (docs/benchmarks.md, issue 9, sixth pass).
enum ReadModelKeys {
    /// Digits in `invertedPosition` and `padded`: enough for `UInt64.max`.
    static let numberDigits = 20

    /// `UInt64.max - position`, zero-padded, so that a later position sorts first.
    static func invertedPosition(_ position: UInt64) -> String {
        padded(UInt64.max - position)
    }

    /// `value` zero-padded to `numberDigits`, so that numbers sort as their keys do.
    static func padded(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: numberDigits) { digits in
            var rest = value
            for index in stride(from: numberDigits - 1, through: 0, by: -1) {
                digits[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            assert(rest == 0, "numberDigits holds every UInt64")
            return numberDigits
        }
    }

    /// An id as one key component. Ids are server-made UUIDs, but the deciders do not promise
    /// that, and an id holding `/` would make one prefix match another's keys: escaping `%` and
    /// `/` keeps keys one-to-one with the ids they are built from.
    static func component(_ id: String) -> String {
        let needsEscaping = id.utf8.withContiguousStorageIfAvailable { bytes in bytes.contains(where: isEscaped) }
            ?? id.utf8.contains(where: isEscaped)
        guard needsEscaping else { return id }
        return id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }

    /// `body` on the UTF-8 bytes of `key` where the string holds them, for handing a key to LMDB
    /// without copying it into an array first (an allocation per put, get and delete).
    static func withBytes<T>(of key: String, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        var key = key
        return try key.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }

    private static func isEscaped(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "%")
    }
}
