import Foundation

extension UUID {
    /// A version-7 UUID (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits.
    ///
    /// Command ids key the log's `commands` index. Random (version-4) ids would land on a random
    /// leaf of that B-tree, so each append would copy and fsync a leaf of its own, and ever more
    /// of them as the log grows; time-ordered ids land at the right edge, keeping append cost
    /// flat (docs/benchmarks.md measured 2.9× slower appends on a 5M-event log with random ids).
    /// The random bits come from `SystemRandomNumberGenerator` (getrandom on Linux).
    public static func timeOrdered(at date: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1_000))
        let high = (milliseconds << 16) | 0x7000 | (generator.next() & 0x0FFF)  // time, version 7, rand_a
        let low = (generator.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10, rand_b
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: uuid)
    }
}
