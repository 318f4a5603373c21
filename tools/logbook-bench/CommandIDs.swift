import ArgumentParser
import Foundation
import EventLog

/// How the benchmark picks command ids, which key the log's `commands` index.
///
/// Random (version-4) ids land on a random leaf of that B-tree, so every append copies and
/// writes a leaf of its own; time-ordered (version-7, the log's default) ids land on the right edge.
/// Comparing the two shows what the index's key order costs the write path.
enum CommandIDs: String, ExpressibleByArgument, CaseIterable, Sendable {
    case random
    case ordered

    func next() -> UUID {
        switch self {
        case .random: return UUID()
        case .ordered: return .timeOrdered()
        }
    }
}
