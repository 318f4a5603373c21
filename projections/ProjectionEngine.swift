import EventLog
import Foundation
import LMDB
import Synchronization

/// Runs projections: follows the log into every read model, rebuilds one while the old copy
/// keeps serving, answers reads, and lets a command wait until its events are projected.
///
/// All read-model writes of this process go through this actor, so they never contend for
/// LMDB's writer lock among themselves; another process (`logbook-admin replay`) may write too,
/// and every batch re-reads the projection's metadata inside its own transaction to notice.
public actor ProjectionEngine<Store: EventStore> {
    /// The log projected.
    public nonisolated let log: Store
    /// The registered projections.
    public nonisolated let projections: [any Projection]
    /// The lowest checkpoint over all projections: every read model includes the log up to it.
    public nonisolated let projected = PositionWatch(position: 0)
    nonisolated let store: ReadModelStore
    private nonisolated let observers = Mutex<[any ProjectionObserver]>([])
    /// Events per read of the log (the log's own page limit).
    static var pageEvents: Int { 1_000 }
    /// Events per read-model transaction at most. While the runner is behind (a first start, a
    /// rebuild) it reads page after page into one transaction, so the commit's cost (the dirty
    /// pages written, the meta updates) is shared by many events; at the head of the log a
    /// batch is whatever arrived.
    static var batchEventsMax: Int { 10_000 }

    /// An engine for `projections` with read models in `<dataDirectory>/readmodels`, whose map
    /// starts at `initialMapSizeBytes` (1 GiB unless given) and doubles whenever it fills.
    public init(
        log: Store, dataDirectory: String, projections: [any Projection], unsafeNoSync: Bool = false,
        initialMapSizeBytes: Int? = nil
    ) throws(ReadModelError) {
        precondition(Set(projections.map(\.name)).count == projections.count, "projection names are unique")
        self.log = log
        self.projections = projections
        store = try ReadModelStore(
            dataDirectory: dataDirectory, unsafeNoSync: unsafeNoSync,
            initialMapSizeBytes: initialMapSizeBytes ?? ReadModelStore.initialMapSizeBytes)
    }

    /// Registers projections seen for the first time and returns the names of those whose stored
    /// copy was built by another version (they need a rebuild; the old copy serves meanwhile).
    public func prepare() throws(ReadModelError) -> [String] {
        var stale: [String] = []
        for projection in projections {
            _ = try store.tables(of: projection, generation: 0)
            let existing = try store.write { txn -> ProjectionMeta? in
                if let meta = try store.meta(of: projection.name, in: txn.reader) { return meta }
                try store.store(ProjectionMeta(version: projection.version, activeGeneration: 0, checkpoint: 0), of: projection.name, in: txn)
                return nil
            }
            if let existing, existing.version != projection.version { stale.append(projection.name) }
        }
        projected.advance(to: max(projected.position, try lowestCheckpoint()))
        return stale
    }

    /// Tells `observer` of every live batch and swap from now on.
    public nonisolated func addObserver(_ observer: any ProjectionObserver) {
        observers.withLock { $0.append(observer) }
    }

    /// Applies new events to every projection until the task is cancelled or the log closes.
    public func runLive() async throws(ReadModelError) {
        while !Task.isCancelled {
            let next = try lowestCheckpoint() + 1
            let page = try await readBatch(from: next)
            guard !page.isEmpty else {
                guard await waitForEvent(at: next) else { return }
                continue
            }
            try applyLive(page)
        }
    }

    /// Builds a new copy of projection `name` from position 1 and swaps it in once it has caught
    /// up; queries read the old copy until then.
    public func rebuild(_ name: String) async throws(ReadModelError) {
        guard let projection = projections.first(where: { $0.name == name }) else { throw .unknownProjection(name) }
        let id = UUID()
        let active = try meta(of: name).activeGeneration
        let generation = active + 1  // the other slot
        let tables = try store.tables(of: projection, generation: generation)
        let oldTables = try store.tables(of: projection, generation: active)
        try store.write { txn in
            guard var meta = try store.meta(of: name, in: txn.reader), meta.activeGeneration == active else {
                throw ReadModelError.generationMoved(name)
            }
            for table in tables.values { try txn.clear(table) }
            meta.rebuild = .init(id: id, generation: generation, version: projection.version, checkpoint: 0)
            try store.store(meta, of: name, in: txn)
        }
        var checkpoint: UInt64 = 0
        while true {
            let records = try await readBatch(from: checkpoint + 1)
            guard let last = records.last else { break }
            let page = DecodedEvents(records)
            try store.write { txn in
                guard var meta = try store.meta(of: name, in: txn.reader), meta.rebuild?.id == id else {
                    throw ReadModelError.rebuildSuperseded(name)
                }
                try apply(projection, page, after: 0, into: tables, txn)
                meta.rebuild?.checkpoint = last.position
                try store.store(meta, of: name, in: txn)
            }
            checkpoint = last.position
        }
        try await swap(projection, id: id, generation: generation, checkpoint: checkpoint, tables: tables, oldTables: oldTables)
    }

    /// Replaces the served copy with the rebuilt one, after bringing the rebuilt one at least as
    /// far as the served one: a reader must never see a read model go back in time.
    private func swap(
        _ projection: any Projection, id: UUID, generation: Int, checkpoint rebuilt: UInt64,
        tables: [String: Database], oldTables: [String: Database]
    ) async throws(ReadModelError) {
        var rebuilt = rebuilt
        while true {
            let served = try meta(of: projection.name).checkpoint
            let missing = DecodedEvents(served > rebuilt ? try await readRange(from: rebuilt + 1, through: served) : [])
            let swapped = try store.write { txn -> Bool in
                guard let meta = try store.meta(of: projection.name, in: txn.reader), meta.rebuild?.id == id else {
                    throw ReadModelError.rebuildSuperseded(projection.name)
                }
                guard meta.checkpoint == served else { return false }  // the live runner moved on: catch up again
                try apply(projection, missing, after: rebuilt, into: tables, txn)
                for table in oldTables.values { try txn.clear(table) }
                let swapped = ProjectionMeta(version: projection.version, activeGeneration: generation, checkpoint: max(served, rebuilt))
                try store.store(swapped, of: projection.name, in: txn)
                return true
            }
            if swapped {
                for observer in observers.withLock({ $0 }) { observer.swapped(projection.name) }
                return
            }
            rebuilt = max(rebuilt, missing.records.last?.position ?? rebuilt)
            try store.write { txn in
                guard var meta = try store.meta(of: projection.name, in: txn.reader), meta.rebuild?.id == id else {
                    throw ReadModelError.rebuildSuperseded(projection.name)
                }
                try apply(projection, missing, after: 0, into: tables, txn)
                meta.rebuild?.checkpoint = rebuilt
                try store.store(meta, of: projection.name, in: txn)
            }
        }
    }

    /// One live batch: every projection's changes and checkpoint in one transaction.
    private func applyLive(_ records: [RecordedEvent]) throws(ReadModelError) {
        let page = DecodedEvents(records)
        while true {
            let generations = try store.read { txn in
                try projections.map { try store.meta(of: $0.name, in: txn)?.activeGeneration ?? 0 }
            }
            var tables: [[String: Database]] = []
            for (projection, generation) in zip(projections, generations) {
                tables.append(try store.tables(of: projection, generation: generation))
            }
            do {
                try store.write { txn in
                    for (index, projection) in projections.enumerated() {
                        guard var meta = try store.meta(of: projection.name, in: txn.reader) else { continue }
                        guard meta.activeGeneration == generations[index] else { throw ReadModelError.generationMoved(projection.name) }
                        guard let last = records.last, last.position > meta.checkpoint else { continue }
                        // A copy of another version has another layout: this code must not read
                        // it. Its rebuild catches up from the log at the swap, so skipping here
                        // loses nothing and keeps read-your-writes moving for every other model.
                        if meta.version == projection.version {
                            try apply(projection, page, after: meta.checkpoint, into: tables[index], txn)
                        }
                        meta.checkpoint = last.position
                        try store.store(meta, of: projection.name, in: txn)
                    }
                }
                break
            } catch let .generationMoved(name) {
                // Another process swapped a copy in: open its tables and redo the batch.
                for observer in observers.withLock({ $0 }) { observer.swapped(name) }
                continue
            }
        }
        let observers = observers.withLock { $0 }
        if !observers.isEmpty {
            let events = records.indices.map { ProjectedEvent(page, at: $0) }
            for observer in observers { observer.committed(events) }
        }
        projected.advance(to: max(projected.position, try lowestCheckpoint()))
    }

    /// Applies the events of `page` after position `after` to `projection`'s `tables`.
    private func apply(
        _ projection: any Projection, _ page: DecodedEvents, after: UInt64, into tables: [String: Database], _ txn: WriteTransaction
    ) throws {
        let writer = ReadModelWriter(transaction: txn, projection: projection.name, tables: tables)
        for index in page.records.indices where page.records[index].position > after {
            let event = ProjectedEvent(page, at: index)
            do {
                try projection.apply(event, to: writer)
            } catch let error as LMDBError {
                // Storage, not the projection: a full map must reach `Environment.write`, which
                // grows it and redoes the batch. Wrapped, it stopped every read model at 1 GiB.
                throw error
            } catch {
                throw ReadModelError.applyFailed(projection: projection.name, position: event.position, reason: "\(error)")
            }
        }
    }

    // MARK: - Reading

    /// Runs `body` on the served copy of `projection`, in one consistent snapshot; throws
    /// `.rebuilding` while that copy was built by another version of the projection.
    public nonisolated func read<T>(_ projection: any Projection, _ body: (ReadModelReader) throws -> T) throws(ReadModelError) -> T {
        // Usually the served generation's tables are open already: then one snapshot resolves
        // the generation and reads, with no second transaction to re-check a swap.
        let fast: [T] = try store.read { txn in
            let meta = try store.meta(of: projection.name, in: txn)
            try Self.checkServable(meta, of: projection)
            let generation = meta?.activeGeneration ?? 0
            guard let tables = store.openedTables(of: projection, generation: generation) else { return [] }
            return [try body(ReadModelReader(transaction: txn, projection: projection.name, tables: tables))]
        }
        if let value = fast.first { return value }
        // Opening a table takes the writer lock, which must not happen inside a read snapshot.
        while true {
            let generation = try store.read { try store.meta(of: projection.name, in: $0)?.activeGeneration } ?? 0
            let tables = try store.tables(of: projection, generation: generation)
            let result: [T] = try store.read { txn in
                // A swap between resolving the generation and this snapshot: resolve again.
                let meta = try store.meta(of: projection.name, in: txn)
                guard meta?.activeGeneration ?? 0 == generation else { return [] }
                try Self.checkServable(meta, of: projection)
                return [try body(ReadModelReader(transaction: txn, projection: projection.name, tables: tables))]
            }
            if let value = result.first { return value }
        }
    }

    /// Refuses to read a copy that another version of `projection` built: its values are in that
    /// version's layout, and read through this code they would be wrong or missing.
    private static func checkServable(_ meta: ProjectionMeta?, of projection: any Projection) throws(ReadModelError) {
        if let meta, meta.version != projection.version { throw .rebuilding(projection.name) }
    }

    /// Returns once every read model includes `position`; throws after `timeout`.
    public nonisolated func waitUntilProjected(_ position: UInt64, timeout: Duration = .seconds(5)) async throws(ReadModelError) {
        if projected.position >= position { return }
        let watch = projected
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watch.wait(untilReaching: position) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        guard projected.position >= position else { throw .notCaughtUp(position: position, projected: projected.position) }
    }

    /// Every projection's progress.
    public func status() async throws(ReadModelError) -> [ProjectionStatus] {
        let head: UInt64
        do { head = try await log.headPosition() } catch { throw .log(error) }
        return try store.read { txn in
            try projections.map { projection in
                let meta = try store.meta(of: projection.name, in: txn) ?? ProjectionMeta(version: projection.version, activeGeneration: 0, checkpoint: 0)
                return ProjectionStatus(
                    name: projection.name, version: meta.version, generation: meta.activeGeneration, checkpoint: meta.checkpoint,
                    lag: head > meta.checkpoint ? head - meta.checkpoint : 0, rebuildCheckpoint: meta.rebuild?.checkpoint
                )
            }
        }
    }

    // MARK: - Helpers

    private func meta(of name: String) throws(ReadModelError) -> ProjectionMeta {
        guard let meta = try store.read({ try store.meta(of: name, in: $0) }) else { throw .unknownProjection(name) }
        return meta
    }

    private func lowestCheckpoint() throws(ReadModelError) -> UInt64 {
        try store.read { txn in
            try projections.map { try store.meta(of: $0.name, in: txn)?.checkpoint ?? 0 }.min() ?? 0
        }
    }

    private func readPage(from position: UInt64) async throws(ReadModelError) -> [RecordedEvent] {
        do {
            return try await log.readAll(from: position, direction: .forward, limit: Self.pageEvents)
        } catch {
            throw .log(error)
        }
    }

    /// Pages from `position` while they come back full, up to `batchEventsMax` events.
    private func readBatch(from position: UInt64) async throws(ReadModelError) -> [RecordedEvent] {
        var batch = try await readPage(from: position)
        while batch.count >= Self.pageEvents, batch.count < Self.batchEventsMax, let last = batch.last {
            let page = try await readPage(from: last.position + 1)
            batch += page
            if page.count < Self.pageEvents { break }
        }
        return batch
    }

    private func readRange(from first: UInt64, through last: UInt64) async throws(ReadModelError) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        var next = first
        while next <= last {
            let page = try await readPage(from: next).filter { $0.position <= last }
            guard let end = page.last else { break }
            events += page
            next = end.position + 1
        }
        return events
    }

    /// Waits for an event at `position`; false when the log closed or the task was cancelled.
    private nonisolated func waitForEvent(at position: UInt64) async -> Bool {
        var iterator = log.subscribe(from: position).makeAsyncIterator()
        return (try? await iterator.next()) != nil
    }
}
