/// Building blocks of read-model keys. LMDB orders keys bytewise, so keys are composed for the
/// queries' prefix scans: fixed-width numbers, and ids escaped so one id's prefix never matches
/// another's keys.
///
/// They run for every key of every event, so they work on bytes: `String(value)` padded by
/// string concatenation and a `Character` scan for escapes were 5% of an albums rebuild's
/// apply (docs/benchmarks.md, issue 9).
enum ReadModelKeys {
    /// Digits in `invertedPosition` and `padded`: enough for `UInt64.max`.
    static let numberDigits = 20

    /// `UInt64.max - position`, zero-padded, so that a later position sorts first.
    static func invertedPosition(_ position: UInt64) -> String {
        padded(UInt64.max - position)
    }

    /// `<prefix><inverted position>`: the key of an item of a newest-first list, made in one
    /// string rather than the number's and then the two joined (the keys of every list entry).
    static func newestFirst(_ prefix: String, _ position: UInt64) -> String {
        var prefix = prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + numberDigits) { key in
                _ = key.initialize(fromContentsOf: head)
                writeDigits(of: UInt64.max - position, into: UnsafeMutableBufferPointer(rebasing: key[head.count...]))
                return head.count + numberDigits
            }
        }
    }

    /// The positions `newestFirst(prefix, _:)` made `keys` from; nil when one was not made so.
    static func positions(ofNewestFirst keys: [String], prefix: String) -> [UInt64]? {
        var positions: [UInt64] = []
        positions.reserveCapacity(keys.count)
        for key in keys {
            guard let position = position(ofNewestFirst: key, prefix: prefix) else { return nil }
            positions.append(position)
        }
        return positions
    }

    /// The position `newestFirst(prefix, position)` made `key` from; nil for a key not made so.
    /// Reads the bytes where the strings hold them: `UInt64(_:)` of the digits' substring was
    /// most of a page of news taken from what was kept.
    static func position(ofNewestFirst key: String, prefix: String) -> UInt64? {
        withBytes(of: key) { key in
            withBytes(of: prefix) { prefix -> UInt64? in
                guard key.count == prefix.count + numberDigits, key.starts(with: prefix) else { return nil }
                var inverted: UInt64 = 0
                for byte in key[prefix.count...] {
                    guard byte &- UInt8(ascii: "0") < 10 else { return nil }
                    let (tens, over) = inverted.multipliedReportingOverflow(by: 10)
                    let (sum, carry) = tens.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
                    guard !over, !carry else { return nil }
                    inverted = sum
                }
                return UInt64.max - inverted
            }
        }
    }

    /// `value` zero-padded to `numberDigits`, so that numbers sort as their keys do.
    static func padded(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: numberDigits) { digits in
            writeDigits(of: value, into: digits)
            return numberDigits
        }
    }

    /// Writes `value` as `numberDigits` decimal digits, two at a time from a table: a division
    /// per digit was most of a key's cost.
    private static func writeDigits(of value: UInt64, into digits: UnsafeMutableBufferPointer<UInt8>) {
        assert(digits.count >= numberDigits)
        var rest = value
        var index = numberDigits
        while index > 0 {
            let pair = Int(rest % 100)
            rest /= 100
            index -= 2
            digits[index] = digitPairs[2 * pair]
            digits[index + 1] = digitPairs[2 * pair + 1]
        }
        assert(rest == 0, "numberDigits holds every UInt64")
    }

    /// "00", "01", … "99", back to back.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }

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
