import EventLog
import Foundation
import Projections

/// Events per type, and the newest events newest-first (keys sort by inverted position).
struct TypeCounts: Projection {
    var version = 1
    var name: String { "typeCounts" }
    var tables: [String] { ["counts", "recent"] }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        let count = try model.value(Int.self, at: event.type, in: "counts") ?? 0
        try model.put(count + 1, at: event.type, in: "counts")
        try model.put(event.position, at: RecentKey.of(event.position), in: "recent")
    }
}

/// Keys that sort newest first.
enum RecentKey {
    static func of(_ position: UInt64) -> String {
        let inverted = UInt64.max - position
        return String(repeating: "0", count: 20 - String(inverted).count) + String(inverted)
    }
}

/// Throws on one event type: a projection with a bug.
struct Failing: Projection {
    var name: String { "failing" }
    var version: Int { 1 }
    var tables: [String] { ["seen"] }

    struct Boom: Error {}

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if event.type == "test.poison" { throw Boom() }
        try model.put(event.position, at: "last", in: "seen")
    }
}

/// Writes a table it did not declare.
struct Undeclared: Projection {
    var name: String { "undeclared" }
    var version: Int { 1 }
    var tables: [String] { ["declared"] }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        try model.put(1, at: "x", in: "other")
    }
}
