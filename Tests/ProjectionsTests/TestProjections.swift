import EventLog
import Foundation
import LMDB
import Projections
import Synchronization

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

/// Counts events, but throws on the event at `failsAt` until its fix is applied: a projection
/// with a bug on one event, and the same projection after the fix.
struct Faulty: Projection {
    var name: String { "faulty" }
    var version: Int { 1 }
    var tables: [String] { ["seen"] }
    /// The position of the event `apply` throws on.
    let failsAt: UInt64
    let fix = FixSwitch()

    struct Bug: Error {}

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if event.position == failsAt && !fix.isApplied { throw Bug() }
        try model.put((try model.value(Int.self, at: "count", in: "seen") ?? 0) + 1, at: "count", in: "seen")
    }

    /// Events it has applied, as its queries would answer.
    func count(_ engine: ProjectionEngine<some EventStore>) throws -> Int {
        try engine.read(self) { try $0.value(Int.self, at: "count", in: "seen") } ?? 0
    }
}

/// Whether a bug's fix is deployed; shared by every copy of the projection holding it.
final class FixSwitch: Sendable {
    private let applied = Mutex(false)
    func apply() { applied.withLock { $0 = true } }
    var isApplied: Bool { applied.withLock { $0 } }
}

/// Throws a storage error (as a failing disk would) on the event at `failsAt`: not the
/// projection's fault, so it stops the runner instead of failing the projection.
struct StorageFailing: Projection {
    var name: String { "storageFailing" }
    var version: Int { 1 }
    var tables: [String] { ["seen"] }
    let failsAt: UInt64

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if event.position == failsAt { throw LMDBError.system(errno: 5) }  // EIO
        try model.put(event.position, at: "last", in: "seen")
    }
}
