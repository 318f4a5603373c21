import ArgumentParser
import Foundation
import Synchronization

/// How the benchmark picks command ids, which key the log's `commands` index.
///
/// Random (version-4) ids land on a random leaf of that B-tree, so every append copies and
/// writes a leaf of its own; time-ordered (version-7 shaped) ids always land on the right edge.
/// Comparing the two shows what the index's key order costs the write path.
enum CommandIDs: String, ExpressibleByArgument, CaseIterable, Sendable {
    case random
    case ordered

    /// Breaks ties within one millisecond and keeps ids unique.
    private static let counter = Atomic<UInt64>(0)

    func next() -> UUID {
        switch self {
        case .random: return UUID()
        case .ordered: return Self.timeOrdered()
        }
    }

    /// 48-bit Unix milliseconds, then a process-wide counter, with the version-7 and variant bits
    /// set: byte order is time order, and LMDB compares keys bytewise.
    private static func timeOrdered() -> UUID {
        let milliseconds = UInt64(Date().timeIntervalSince1970 * 1_000)
        let sequence = counter.add(1, ordering: .relaxed).newValue
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        for index in 0..<8 { bytes[8 + index] = UInt8(truncatingIfNeeded: sequence >> (8 * (7 - index))) }
        bytes[6] = 0x70  // version 7; rand_a left zero so order rests on the counter
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
