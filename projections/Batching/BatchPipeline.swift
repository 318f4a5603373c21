import EventLog
import Foundation
import Synchronization

/// The engine's batches while it is behind (a first catch-up, a rebuild): the next batch is read,
/// decoded and perhaps made into rows on the other core while the engine's thread applies the one
/// before, and each applied batch is freed on whichever side has the time.
///
/// What the other core takes on is learnt batch by batch from the CPU time each side took
/// (`BatchShares`): an initial build of every read model waits for the engine's thread, with the
/// other core to spare; a rebuild of one projection waits for the decoding (docs/benchmarks.md,
/// issue 9). At the head of the log a batch is whatever arrived, and nothing is read ahead.
final class BatchPipeline<Store: EventStore> {
    /// A batch read ahead: the position it starts at, its records with their events decoded (and
    /// perhaps rows made), and the CPU time the decoding took.
    private typealias Ahead = (position: UInt64, page: DecodedEvents, decodeCPU: Duration)

    private let engine: ProjectionEngine<Store>
    private let projections: [any Projection]
    /// The batch being read ahead, and the one it read once `applied` has waited for it.
    private var following: Task<Ahead?, Never>?
    private var ahead: Ahead?
    /// What the other core does with the next batch, learnt so far.
    private(set) var shares = BatchShares()
    private let freed = FreedBatches()

    init(engine: ProjectionEngine<Store>, projections: [any Projection]) {
        self.engine = engine
        self.projections = projections
    }

    /// The batch from `position`: the one read ahead when it starts there, else read now.
    nonisolated(nonsending) func batch(from position: UInt64) async throws(ReadModelError) -> DecodedEvents {
        // A batch read ahead of one that was not applied (its keys were unavailable) starts
        // elsewhere: it is dropped, and the batch read again.
        following = nil
        defer { ahead = nil }
        if let ahead, ahead.position == position { return ahead.page }
        return DecodedEvents(try await engine.readBatch(from: position), opening: engine.personalData)
    }

    /// Starts reading the batch after `page` on another core, decoded as the projections will ask
    /// for it and, when the shares say so, with the rows of those that are `RowProjection`s, when
    /// `page` was full: catching up, more are likely waiting. Detached, as a task of the engine's
    /// actor could not start while it applies.
    func readAhead(after page: DecodedEvents) {
        guard page.records.count >= ProjectionEngine<Store>.batchEventsMax, let last = page.records.last else { return }
        let rowProjections = shares.rowsAhead ? projections.compactMap { $0 as? any RowProjection } : []
        let (engine, projections, slices) = (engine, projections, shares.slices)
        following = Task.detached {
            guard let records = try? await engine.readBatch(from: last.position + 1) else { return nil }
            let page = DecodedEvents(records, opening: engine.personalData)
            let decodeCPU = await page.decodeAhead(projections.compactMap(\.reads).joined(), rowProjections: rowProjections, slices: slices)
            return (last.position + 1, page, decodeCPU)
        }
    }

    /// After the engine applied `page` in `applyCPU` of its thread: waits for the batch read ahead
    /// meanwhile, learns from both sides' CPU time, and frees `page` where the shares say.
    nonisolated(nonsending) func applied(_ page: consuming DecodedEvents, applyCPU: Duration) async {
        ahead = await following?.value
        following = nil
        if let ahead {
            shares.learn(
                decodeCPU: ahead.decodeCPU, applyCPU: applyCPU, rowsMadeAhead: page.madeRowsAhead, rowsCPU: page.rowsCPU,
                releaseCPU: freed.lastCPU)
        }
        freed.free(page, aside: ahead != nil && shares.releaseAside)
    }

    /// Returns once every batch freed aside so far is freed.
    nonisolated(nonsending) func settled() async {
        await freed.settled()
    }
}

/// How the work of a catch-up is shared between the engine's thread and the other core, learnt
/// batch by batch from what each side's last batch cost:
/// - `slices`: the batch read ahead is decoded in one slice per core while decoding costs more
///   than applying (the engine then waits for it: a rebuild of one projection), else in one,
///   since more slices would take the core the engine's apply needs;
/// - `rowsAhead`: the `RowProjection`s' rows are made ahead while the decoding and the rows
///   together still cost less than the engine's apply without them, else by the engine;
/// - `releaseAside`: an applied batch is freed on a task of its own (a workplace batch frees
///   answers and texts by the tens of thousands) while that shortens the longer side, else on
///   the engine's thread.
struct BatchShares {
    private(set) var slices = 1
    /// At first yes, which measures the rows.
    private(set) var rowsAhead = true
    /// The rows' CPU time when a batch last made them ahead: the estimate while the engine makes them.
    private var rowsCPU = Duration.zero
    /// At first no, which measures the freeing.
    private(set) var releaseAside = false

    /// After applying a batch: its apply took `applyCPU` on the engine's thread, which made the
    /// rows itself unless `rowsMadeAhead` (they then took `rowsCPU` ahead); the next batch, read
    /// ahead meanwhile, took `decodeCPU` to decode; freeing a batch last took `releaseCPU`.
    mutating func learn(decodeCPU: Duration, applyCPU: Duration, rowsMadeAhead: Bool, rowsCPU: Duration, releaseCPU: Duration = .zero) {
        if rowsMadeAhead { self.rowsCPU = rowsCPU }
        let apply = rowsMadeAhead ? applyCPU : max(applyCPU - self.rowsCPU, .zero)
        rowsAhead = decodeCPU + self.rowsCPU <= apply
        let readAhead = rowsAhead ? decodeCPU + self.rowsCPU : decodeCPU
        let engine = rowsAhead ? apply : apply + self.rowsCPU
        slices = readAhead > engine ? ProcessInfo.processInfo.activeProcessorCount : 1
        // Freeing aside shortens the longer side, max(readAhead + release, engine) against
        // max(readAhead, engine + release), exactly while the read-ahead side is the shorter one
        // and there is something to free.
        releaseAside = readAhead < engine && releaseCPU > .zero
    }
}

/// Frees applied batches, on the engine's thread or aside on a task of its own, and keeps the CPU
/// time the last one took: a batch's decoded events are freed when its last reference goes.
final class FreedBatches: Sendable {
    private let last = Mutex(Duration.zero)
    /// The last batch freed aside; each waits for the one before, so this one ending means all did.
    private let lastAside = Mutex<Task<Void, Never>?>(nil)

    /// The CPU time freeing the last batch took.
    var lastCPU: Duration { last.withLock { $0 } }

    /// Frees `page`, which nothing else holds (the caller consumes its own reference): here, or
    /// `aside` on a task of its own.
    func free(_ page: consuming DecodedEvents, aside: Bool) {
        let box = Box(page)
        guard aside else { return empty(box) }
        lastAside.withLock { lastAside in
            let before = lastAside
            lastAside = Task.detached {
                await before?.value
                self.empty(box)
            }
        }
    }

    /// Returns once every batch freed so far is freed.
    func settled() async {
        await lastAside.withLock { $0 }?.value
    }

    private func empty(_ box: Box) {
        let cpu = ThreadCPUTime.measure { box.empty() }.1
        last.withLock { $0 = cpu }
    }

    /// Holds a batch until `empty` drops it, on whichever thread calls it.
    private final class Box: @unchecked Sendable {
        // @unchecked: `page` is set once and dropped once, by the one task that frees it.
        private var page: DecodedEvents?
        init(_ page: consuming DecodedEvents) { self.page = page }
        func empty() { page = nil }
    }
}
