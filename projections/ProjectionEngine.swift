import EventLog
import EventSourcing
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
    /// The lowest checkpoint over all projections that have not failed: every read model that
    /// answers queries includes the log up to it. A failed projection is left out, so a command
    /// waiting to read its own writes is not held up by a read model that will not catch up.
    public nonisolated let projected = PositionWatch(position: 0)
    nonisolated let store: ReadModelStore
    nonisolated let observers = Mutex<[any ProjectionObserver]>([])
    nonisolated let runner = Mutex(ProjectionRunnerStatus())
    nonisolated let reporter = Mutex<(@Sendable (ProjectionIncident) -> Void)?>(nil)
    /// How many times the end of a long catch-up or rebuild gave freed memory back (`FreedMemory`).
    nonisolated let freedMemoryReturns = Atomic<Int>(0)
    /// What queries made of the log's events, kept for the next reader (`logItems(at:)`).
    nonisolated let logItemCache = LogItemCache()
    /// Test seam: called at each step of a rebuild, which waits for it, so a test can append or
    /// read while a rebuild is paused at a chosen point.
    nonisolated let rebuildHook = Mutex<(@Sendable (RebuildStep) async -> Void)?>(nil)
    /// The keyring every decoding of events the engine does or answers for opens sealed fields
    /// with (ADR 0004): applying, reading ahead, a query reading an item from the log.
    public nonisolated let personalData: (any PersonalDataKeyring)?
    /// Events per read of the log (the log's own page limit).
    static var pageEvents: Int { 1_000 }
    /// Events per read-model transaction at most. While the runner is behind (a first start, a
    /// rebuild) it reads page after page into one transaction, so the commit's cost (the dirty
    /// pages written, the meta updates) is shared by many events; at the head of the log a
    /// batch is whatever arrived. 20,000 rather than 10,000: a page first dirtied in a
    /// transaction is copied whole, and keys spread over many pages (a history per house) are
    /// dirtied once per transaction; household's initial build went from 190k to 219k events/s,
    /// albums' from 269k to 321k, while 100,000 gained nothing more and slowed single-projection
    /// rebuilds, whose read-ahead starts later (docs/benchmarks.md, issue 9). Those
    /// logs had one actor; with a list per user (`accounts.activity`) nearly every list gets a
    /// row per transaction, and 40,000 took a sealed household build from 186k–231k to
    /// 263k–271k events/s (80,000: 288k–291k, but twice the heap; docs/benchmarks.md).
    static var batchEventsMax: Int { 40_000 }
    /// Events a first catch-up must have applied for its end to flush the read models
    /// (`ReadModelStore.flushUnsynced`) and give the freed memory back (`FreedMemory`), and a
    /// rebuild for the latter: one full batch's worth. A shorter one leaves little for the kernel
    /// to write back or the allocator to give back.
    static var longCatchUpEventsMin: Int { batchEventsMax }

    /// An engine for `projections` with read models in `<dataDirectory>/readmodels`, whose map
    /// starts at `initialMapSizeBytes` (1 GiB unless given) and doubles whenever it fills, synced
    /// as `sync` says (`bootID`: this boot of the machine; tests pass another to model a restart).
    /// `readOnly` opens existing read models only to read them and their status (`logbook-admin
    /// stats` beside a running server); such an engine must not prepare, run or rebuild.
    public init(
        log: Store, dataDirectory: String, projections: [any Projection], sync: ReadModelSync = .everyCommit,
        bootID: String? = MachineBoot.id, initialMapSizeBytes: Int? = nil, readOnly: Bool = false,
        personalData: (any PersonalDataKeyring)? = nil
    ) throws(ReadModelError) {
        precondition(Set(projections.map(\.name)).count == projections.count, "projection names are unique")
        self.log = log
        self.projections = projections
        self.personalData = personalData
        store = try ReadModelStore(
            dataDirectory: dataDirectory, sync: sync, bootID: bootID,
            initialMapSizeBytes: initialMapSizeBytes ?? ReadModelStore.initialMapSizeBytes, readOnly: readOnly)
    }

    /// Whether opening deleted the read models, because they were written without sync when the
    /// machine restarted (`ReadModelSync.untilFinished`); they are built again from the log.
    public nonisolated var discardedUnsyncedReadModels: Bool { store.discardedUnsynced }

    /// Syncs the read models and, from now on, every commit (`ReadModelSync.untilFinished`): the
    /// last step before the process ends. Commits may still follow, each synced.
    public nonisolated func finishUnsyncedWrites() throws(ReadModelError) {
        try store.finishUnsyncedWrites()
    }

    /// Registers projections seen for the first time and returns the names of those that need a
    /// rebuild: their stored copy was built by another version (queries answer `.rebuilding`
    /// meanwhile), or they failed (this build may carry the fix; if not, they fail again).
    public func prepare() throws(ReadModelError) -> [String] {
        var stale: [String] = []
        for projection in projections {
            _ = try store.tables(of: projection, generation: 0)
            let existing = try store.write { txn -> ProjectionMeta? in
                if let meta = try store.meta(of: projection.name, in: txn.reader) { return meta }
                try store.store(ProjectionMeta(version: projection.version, activeGeneration: 0, checkpoint: 0), of: projection.name, in: txn)
                return nil
            }
            if let existing, existing.version != projection.version || existing.failure != nil { stale.append(projection.name) }
        }
        // With every projection failed, nothing serves: the runner starts from the lowest.
        var start = try liveCheckpoint()
        if start == nil { start = try lowestCheckpoint() }
        projected.advance(to: max(projected.position, start ?? 0))
        return stale
    }

    /// Tells `observer` of every live batch and swap from now on.
    public nonisolated func addObserver(_ observer: any ProjectionObserver) {
        observers.withLock { $0.append(observer) }
    }

    /// Hands every `ProjectionIncident` from now on to `report` (the server logs them); it is
    /// called on the engine's executor, so it must return quickly.
    public nonisolated func reportIncidents(to report: @escaping @Sendable (ProjectionIncident) -> Void) {
        reporter.withLock { $0 = report }
    }

    /// What the live runner is doing now.
    public nonisolated var runnerStatus: ProjectionRunnerStatus { runner.withLock { $0 } }

    nonisolated func report(_ incident: ProjectionIncident) {
        reporter.withLock { $0 }?(incident)
    }

    /// Tells the observers that `name`'s values may have changed wholesale (a swap, a failure).
    nonisolated func notifySwapped(_ name: String) {
        for observer in observers.withLock({ $0 }) { observer.swapped(name) }
    }

    /// Applies the events of `page` after position `after` to `projection`'s `tables`.
    func apply(
        _ projection: any Projection, _ page: DecodedEvents, after: UInt64, into tables: ReadModelTables, _ txn: WriteTransaction
    ) throws {
        let heldTables = projection.heldTables
        assert(heldTables.isSubset(of: projection.tables), "\(projection.name) holds only tables it has")
        let writer = ReadModelWriter(
            transaction: txn, projection: projection.name, tables: tables, held: heldTables.isEmpty ? nil : HeldWrites(tables: heldTables))
        try apply(projection, page, after: after, writer)
    }

    private func apply(_ projection: any Projection, _ page: DecodedEvents, after: UInt64, _ writer: ReadModelWriter) throws {
        let first = page.records.firstIndex { $0.position > after } ?? page.records.endIndex
        guard first < page.records.endIndex else { return }
        let reads = projection.reads
        page.reading = reads?.map { $0.domain }
        defer { page.reading = nil }
        if let rowProjection = projection as? any RowProjection {
            return try storeRows(of: rowProjection, page, from: first, writer)
        }
        let wanted = page.wanted(by: reads)
        for index in page.records.indices[first...] {
            if let wanted, !wanted[page.domainIndices[index]] { continue }
            let event = ProjectedEvent(page, at: index)
            do {
                try projection.apply(event, to: writer)
            } catch {
                throw Self.failure(error, of: projection, at: event.position)
            }
        }
        // Keys were checked as they were held: what storing them can throw is the storage's.
        do {
            try writer.storeHeld()
        } catch {
            throw Self.failure(error, of: projection, at: page.records[page.records.endIndex - 1].position)
        }
    }

    /// Stores the rows `projection` makes of the events of `page` from its record `first` on: those
    /// a batch read ahead made when it holds them all, else made here. A key LMDB would refuse
    /// fails the projection at the event that made it.
    private func storeRows(of projection: any RowProjection, _ page: DecodedEvents, from first: Int, _ writer: ReadModelWriter) throws {
        let keyBytesMax = writer.transaction.keyBytesMax
        var ahead = first == page.records.startIndex ? page.rowsMadeAhead(by: projection.name) : nil
        if let rows = ahead?.rows, rows.unstorableKeyBytes(from: 0, keyBytesMax: keyBytesMax) != nil { ahead = nil }
        let rows: ReadModelRows
        if let ahead {
            rows = ahead.rows
        } else {
            do throws(DecodedEvents.RowsFailure) {
                rows = try page.rows(of: projection, in: first..<page.records.endIndex, keyBytesMax: keyBytesMax)
            } catch {
                throw Self.failure(error.error, of: projection, at: page.records[error.index].position)
            }
        }
        do {
            try writer.store(rows, inOrder: ahead?.order)
        } catch {
            throw Self.failure(error, of: projection, at: page.records[page.records.endIndex - 1].position)
        }
    }

    /// What `apply` throws when applying `projection` to the event at `position` threw `error`.
    private static func failure(_ error: any Error, of projection: any Projection, at position: UInt64) -> any Error {
        switch error {
        case let error as LMDBError where !isProjectionFault(error):
            // Storage, not the projection: a full map must reach `Environment.write`, which
            // grows it and redoes the batch. Wrapped, it stopped every read model at 1 GiB.
            error
        case let PersonalDataError.keyStore(_, reason):
            ReadModelError.keysUnavailable(reason: reason)
        default:
            ReadModelError.applyFailed(projection: projection.name, position: position, reason: "\(error)")
        }
    }

    /// LMDB errors a projection causes with what it writes (an empty or oversize key or value),
    /// as opposed to the storage failing: those fail the projection, not the runner.
    private static func isProjectionFault(_ error: LMDBError) -> Bool {
        switch error {
        case .keySize, .badValueSize: true
        default: false
        }
    }

    // MARK: - Reading

    /// Runs `body` on the served copy of `projection`, in one consistent snapshot; throws
    /// `.rebuilding` while that copy was built by another version of the projection, and
    /// `.unavailable` while the projection is marked failed.
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
    /// version's layout, and read through this code they would be wrong or missing. Refuses a
    /// failed projection's copy too: it stopped before an event and would answer as if that
    /// event and every later one had not happened.
    private static func checkServable(_ meta: ProjectionMeta?, of projection: any Projection) throws(ReadModelError) {
        guard let meta else { return }
        if let failure = meta.failure { throw .unavailable(projection: projection.name, failedAt: failure.position) }
        if meta.version != projection.version { throw .rebuilding(projection.name) }
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

    /// Every projection's progress, failure and last rebuild error.
    public nonisolated func status() async throws(ReadModelError) -> [ProjectionStatus] {
        let head: UInt64
        do { head = try await log.headPosition() } catch { throw .log(error) }
        return try store.read { txn in
            try projections.map { projection in
                let meta = try store.meta(of: projection.name, in: txn) ?? ProjectionMeta(version: projection.version, activeGeneration: 0, checkpoint: 0)
                return ProjectionStatus(
                    name: projection.name, version: meta.version, generation: meta.activeGeneration, checkpoint: meta.checkpoint,
                    lag: head > meta.checkpoint ? head - meta.checkpoint : 0, rebuildCheckpoint: meta.rebuild?.checkpoint,
                    state: meta.state(of: projection), failure: meta.failure, lastRebuildError: meta.lastRebuildError
                )
            }
        }
    }

    // MARK: - Helpers

    func meta(of name: String) throws(ReadModelError) -> ProjectionMeta {
        guard let meta = try store.read({ try store.meta(of: name, in: $0) }) else { throw .unknownProjection(name) }
        return meta
    }

    /// The lowest checkpoint over every projection, failed or not.
    private func lowestCheckpoint() throws(ReadModelError) -> UInt64 {
        try checkpoints().min() ?? 0
    }

    /// The highest checkpoint over every projection, failed or not: no served read model holds
    /// anything of an event past it.
    public func highestCheckpoint() throws(ReadModelError) -> UInt64 {
        try checkpoints().max() ?? 0
    }

    private func checkpoints() throws(ReadModelError) -> [UInt64] {
        try store.read { txn in
            try projections.map { try store.meta(of: $0.name, in: txn)?.checkpoint ?? 0 }
        }
    }

    /// The lowest checkpoint over the projections that have not failed; nil when all have.
    func liveCheckpoint() throws(ReadModelError) -> UInt64? {
        try store.read { txn in
            try projections.compactMap { projection -> UInt64? in
                let meta = try store.meta(of: projection.name, in: txn)
                return meta?.failure == nil ? meta?.checkpoint ?? 0 : nil
            }.min()
        }
    }

    private nonisolated(nonsending) func readPage(from position: UInt64) async throws(ReadModelError) -> [RecordedEvent] {
        do {
            return try await log.readAll(from: position, direction: .forward, limit: Self.pageEvents)
        } catch {
            throw .log(error)
        }
    }

    /// Up to `batchEventsMax` events from `position` (`EventStore.readBatch`). On its caller's
    /// executor: the engine's when the runner reads (nothing else of the engine runs in between,
    /// as before), another thread's when a batch is read ahead.
    nonisolated(nonsending) func readBatch(from position: UInt64) async throws(ReadModelError) -> [RecordedEvent] {
        do {
            return try await log.readBatch(from: position, limit: Self.batchEventsMax)
        } catch {
            throw .log(error)
        }
    }

    func readRange(from first: UInt64, through last: UInt64) async throws(ReadModelError) -> [RecordedEvent] {
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
}
