import EventLog
import Foundation
import LMDB

/// Rebuilds: a new copy of one projection built beside the served one and swapped in.
extension ProjectionEngine {
    /// Builds a new copy of projection `name` from position 1 and swaps it in once it has caught
    /// up; queries read the old copy until then. A rebuild of a failed projection (after a fix)
    /// recovers it: the new copy carries no failure.
    ///
    /// When it fails, the served copy stays as it was and the error is recorded as the
    /// projection's `lastRebuildError` (and reported) before it is thrown; if the projection's
    /// `apply` threw and the served copy cannot answer anyway (failed, or another version's), the
    /// projection is marked failed at that event.
    public func rebuild(_ name: String) async throws(ReadModelError) {
        guard let projection = projections.first(where: { $0.name == name }) else { throw .unknownProjection(name) }
        let id = UUID()
        do throws(ReadModelError) {
            try await build(projection, id: id)
        } catch .rebuildSuperseded {
            throw .rebuildSuperseded(name)  // not a failure: the other rebuild goes on
        } catch {
            recordRebuildFailure(of: projection, id: id, error)
            throw error
        }
    }

    private func build(_ projection: any Projection, id: UUID) async throws(ReadModelError) {
        let name = projection.name
        let active = try meta(of: name).activeGeneration
        let generation = active + 1  // the other slot
        let tables = try store.tables(of: projection, generation: generation)
        let oldTables = try store.tables(of: projection, generation: active)
        try store.write { txn in
            guard var meta = try store.meta(of: name, in: txn.reader), meta.activeGeneration == active else {
                throw ReadModelError.generationMoved(name)
            }
            for table in tables.databases { try txn.clear(table) }
            meta.rebuild = .init(id: id, generation: generation, version: projection.version, checkpoint: 0)
            try store.store(meta, of: name, in: txn)
        }
        var checkpoint: UInt64 = 0
        // The next batch read ahead while this one is applied, as the live runner's catch-up does.
        let batches = BatchPipeline(engine: self, projections: [projection])
        while true {
            let page = try await batches.batch(from: checkpoint + 1)
            guard let last = page.records.last else { break }
            batches.readAhead(after: page)
            let applyCPU = try ThreadCPUTime.measure { () throws(ReadModelError) in
                try store.write { txn in
                    guard var meta = try store.meta(of: name, in: txn.reader), meta.rebuild?.id == id else {
                        throw ReadModelError.rebuildSuperseded(name)
                    }
                    try apply(projection, page, after: 0, into: tables, txn)
                    meta.rebuild?.checkpoint = last.position
                    try store.store(meta, of: name, in: txn)
                }
            }.1
            checkpoint = last.position
            await batches.applied(consume page, applyCPU: applyCPU)
            await pause(at: .built(checkpoint: checkpoint))
        }
        if checkpoint >= Self.longCatchUpEventsMin { await returnFreedMemory(of: batches) }
        await pause(at: .reachedEnd(checkpoint: checkpoint))
        try await swap(projection, id: id, generation: generation, checkpoint: checkpoint, tables: tables, oldTables: oldTables)
    }

    /// Replaces the served copy with the rebuilt one, after bringing the rebuilt one at least as
    /// far as the served one and as `projected`: a reader must never see a read model go back in
    /// time, and a command answered at `projected` must find its events in it. (A failed copy's
    /// checkpoint stayed behind `projected`, so the served checkpoint alone is not enough.)
    private func swap(
        _ projection: any Projection, id: UUID, generation: Int, checkpoint rebuilt: UInt64,
        tables: ReadModelTables, oldTables: ReadModelTables
    ) async throws(ReadModelError) {
        var rebuilt = rebuilt
        while true {
            let served = try meta(of: projection.name).checkpoint
            let target = max(served, projected.position)
            let missing = DecodedEvents(target > rebuilt ? try await readRange(from: rebuilt + 1, through: target) : [], opening: personalData)
            await pause(at: .swapping(served: served, rebuilt: rebuilt, target: target, missing: missing.records.count))
            let swapped = try store.write { txn -> Bool in
                guard let meta = try store.meta(of: projection.name, in: txn.reader), meta.rebuild?.id == id else {
                    throw ReadModelError.rebuildSuperseded(projection.name)
                }
                // The live runner moved on meanwhile: catch up again.
                guard meta.checkpoint == served, projected.position <= target else { return false }
                try apply(projection, missing, after: rebuilt, into: tables, txn)
                for table in oldTables.databases { try txn.clear(table) }
                let swapped = ProjectionMeta(version: projection.version, activeGeneration: generation, checkpoint: max(target, rebuilt))
                try store.store(swapped, of: projection.name, in: txn)
                return true
            }
            if swapped {
                notifySwapped(projection.name)
                return
            }
            try store.write { txn in
                guard var meta = try store.meta(of: projection.name, in: txn.reader), meta.rebuild?.id == id else {
                    throw ReadModelError.rebuildSuperseded(projection.name)
                }
                try apply(projection, missing, after: rebuilt, into: tables, txn)
                meta.rebuild?.checkpoint = max(rebuilt, missing.records.last?.position ?? rebuilt)
                try store.store(meta, of: projection.name, in: txn)
            }
            rebuilt = max(rebuilt, missing.records.last?.position ?? rebuilt)
        }
    }

    /// Records why rebuild `id` failed in the projection's metadata, and reports it.
    private func recordRebuildFailure(of projection: any Projection, id: UUID, _ error: ReadModelError) {
        var reason = "\(error)"
        do throws(ReadModelError) {
            try store.write { txn in
                guard var meta = try store.meta(of: projection.name, in: txn.reader) else { return }
                if meta.rebuild?.id == id { meta.rebuild = nil }
                meta.lastRebuildError = reason
                // The served copy cannot answer anyway: say why, where the new code stopped.
                if case let .applyFailed(_, position, applyReason) = error, meta.state(of: projection) != .serving {
                    meta.failure = ProjectionFailure(position: position, reason: applyReason)
                }
                try store.store(meta, of: projection.name, in: txn)
            }
        } catch {
            reason += " (recording it failed too: \(error))"
        }
        report(.rebuildFailed(name: projection.name, reason: reason))
    }

    private func pause(at step: RebuildStep) async {
        if let hook = rebuildHook.withLock({ $0 }) { await hook(step) }
    }
}
