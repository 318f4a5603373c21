import EventLog
import EventSourcing
import Foundation
import LMDB

/// Read models computed from the log's prefix up to `position` into a temporary directory of
/// their own, never the served read models: the app query types (`HouseholdQueries(engine:)`,
/// `QuizQueries(engine:)`, …) answer on `engine` as they would have right after `position`.
///
/// The copy's engine never runs live, so it stays at `position`. The directory is removed when
/// the copy is released (its LMDB files may still be mapped then; unlinking them is safe).
public final class PointInTime<Store: EventStore>: Sendable {
    /// The last event the copy includes.
    public let position: UInt64
    /// An engine over the copy, for the query types; do not run, prepare or rebuild it.
    public let engine: ProjectionEngine<Store>
    /// The temporary data directory holding the copy (`<directory>/readmodels`).
    public let directory: String

    /// The map the copy starts with: it doubles when full, like the served one, and a prefix of
    /// a small log fits in a fraction of it.
    static var initialMapSizeBytes: Int { 64 << 20 }

    private init(position: UInt64, engine: ProjectionEngine<Store>, directory: String) {
        self.position = position
        self.engine = engine
        self.directory = directory
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Builds `projections` (every one of them, or a chosen few) from events 1…`position` of
    /// `log` in a new directory under `temporaryDirectory`. Personal fields are opened with
    /// `personalData`, as the served engine opens them.
    public static func build(
        log: Store, through position: UInt64, projections: [any Projection], personalData: (any PersonalDataKeyring)?,
        temporaryDirectory: String = NSTemporaryDirectory()
    ) async throws(PointInTimeError) -> PointInTime {
        guard position > 0 else { throw .positionZero }
        let head: UInt64
        do { head = try await log.headPosition() } catch { throw .readModel(.log(error)) }
        guard position <= head else { throw .beyondHead(position: position, head: head) }
        let directory = (temporaryDirectory as NSString).appendingPathComponent("logbook-as-of-\(position)-\(UUID().uuidString)")
        do throws(ReadModelError) {
            // Created before the engine, so a failure below leaves nothing behind either.
            let engine = try ProjectionEngine(
                log: log, dataDirectory: directory, projections: projections, sync: .unsafeNever,
                initialMapSizeBytes: initialMapSizeBytes, personalData: personalData)
            let copy = PointInTime(position: position, engine: engine, directory: directory)
            _ = try await engine.prepare()
            try await engine.buildPrefix(through: position)
            return copy
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw .readModel(error)
        }
    }

    /// The last position recorded at or before `microsecondsSince1970` (the log's resolution).
    /// The log's `recordedAt` never goes backwards along it (the writer holds it back when the
    /// wall clock does), so the positions recorded by then are a prefix, found by bisection.
    public static func position(atOrBefore microsecondsSince1970: Int64, in log: Store) async throws(PointInTimeError) -> UInt64 {
        func recorded(_ position: UInt64) async throws(PointInTimeError) -> Int64 {
            let events: [RecordedEvent]
            do { events = try await log.readAll(from: position, direction: .forward, limit: 1) } catch { throw .readModel(.log(error)) }
            guard let event = events.first else { return .max }
            return Int64((event.recordedAt.timeIntervalSince1970 * 1_000_000).rounded())
        }
        let head: UInt64
        do { head = try await log.headPosition() } catch { throw .readModel(.log(error)) }
        // Invariant: every position < low is at or before the time; every position > high is after.
        var low: UInt64 = 1
        var high = head
        while low <= high {
            let middle = low + (high - low) / 2
            if try await recorded(middle) <= microsecondsSince1970 { low = middle + 1 } else { high = middle - 1 }
        }
        guard high >= 1 else { throw .beforeFirstEvent(microsecondsSince1970: microsecondsSince1970) }
        return high
    }
}

extension ProjectionEngine {
    /// Applies events 1…`position` to every projection's first slot, in batches, and records
    /// `position` as each one's checkpoint. For a fresh engine in a directory of its own
    /// (`PointInTime`): it neither swaps nor checks for another writer.
    func buildPrefix(through position: UInt64) async throws(ReadModelError) {
        var tables: [(projection: any Projection, tables: ReadModelTables)] = []
        for projection in projections { tables.append((projection, try store.tables(of: projection, generation: 0))) }
        var checkpoint: UInt64 = 0
        while checkpoint < position {
            let records = try await readBatch(from: checkpoint + 1).filter { $0.position <= position }
            guard let last = records.last else { break }
            let page = DecodedEvents(records, opening: personalData)
            try store.write { txn in
                for (projection, tables) in tables {
                    try apply(projection, page, after: 0, into: tables, txn)
                    try store.store(ProjectionMeta(version: projection.version, activeGeneration: 0, checkpoint: last.position), of: projection.name, in: txn)
                }
            }
            checkpoint = last.position
        }
        projected.advance(to: checkpoint)
    }
}
