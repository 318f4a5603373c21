import EventLog
import EventSourcing
import Foundation
import LMDB

/// The live runner: follows the log into every projection that has not failed.
extension ProjectionEngine {
    /// How the runner's wait for the next event ended.
    private enum Wake {
        case event
        /// The log closed or the task was cancelled.
        case ended
        case failed(String)
    }

    /// Applies new events to every projection until the task is cancelled or the log closes.
    ///
    /// A projection whose `apply` throws is marked failed and skipped from then on; the others
    /// go on. A log read that fails is retried after `retryDelayMin`, doubling up to
    /// `retryDelayMax`, and shows in `runnerStatus` (so `/health/ready`) meanwhile. What it
    /// still throws (the read models' storage failing) stops it, as `runnerStatus` records.
    public func runLive(retryDelayMin: Duration = .milliseconds(50), retryDelayMax: Duration = .seconds(5)) async throws(ReadModelError) {
        runner.withLock { $0 = ProjectionRunnerStatus(phase: .catchingUp) }
        var reached = projected.position
        let batches = BatchPipeline(engine: self, projections: projections)
        // Events applied before the runner first reached the head of the log.
        var caughtUp = 0
        do throws(ReadModelError) {
            while !Task.isCancelled {
                let next = (try liveCheckpoint() ?? reached) + 1
                let page: DecodedEvents
                do throws(ReadModelError) {
                    page = try await batches.batch(from: next)
                } catch {
                    await backOff(after: "\(error)", retryDelayMin, retryDelayMax)
                    continue
                }
                guard let last = page.records.last else {
                    logReadSucceeded()
                    if runner.withLock({ $0.phase == .catchingUp }) {
                        if caughtUp >= Self.longCatchUpEventsMin {
                            try store.flushUnsynced()
                            await returnFreedMemory(of: batches)
                        }
                        runner.withLock { if $0.phase == .catchingUp { $0.phase = .running } }
                    }
                    switch await waitForEvent(at: next) {
                    case .event: continue
                    case .ended:
                        stop(Task.isCancelled ? "cancelled" : "the log closed")
                        return
                    case let .failed(reason):
                        await backOff(after: reason, retryDelayMin, retryDelayMax)
                        continue
                    }
                }
                batches.readAhead(after: page)
                let applyCPU: Duration
                do throws(ReadModelError) {
                    applyCPU = try ThreadCPUTime.measure { () throws(ReadModelError) in try applyLive(page) }.1
                } catch let .keysUnavailable(reason) {
                    // Nothing of the batch committed: it is read and applied again.
                    await backOff(after: "personal-data keys: \(reason)", retryDelayMin, retryDelayMax)
                    continue
                }
                logReadSucceeded()
                reached = last.position
                caughtUp += page.records.count
                await batches.applied(consume page, applyCPU: applyCPU)
            }
            stop("cancelled")
        } catch {
            stop("\(error)", reporting: false)  // thrown to the caller, who reports it
            throw error
        }
    }

    /// Gives the memory of the batches `batches` applied back to the system, once they all are
    /// freed: the end of a long catch-up or rebuild (`FreedMemory`).
    func returnFreedMemory(of batches: BatchPipeline<Store>) async {
        await batches.settled()
        FreedMemory.returnToSystem()
        freedMemoryReturns.add(1, ordering: .relaxed)
    }

    private func stop(_ reason: String, reporting: Bool = true) {
        runner.withLock {
            $0.phase = .stopped
            $0.stopReason = reason
        }
        if reporting { report(.runnerStopped(reason: reason)) }
    }

    /// Records a failed log read, reports it and sleeps before the retry.
    private func backOff(after reason: String, _ delayMin: Duration, _ delayMax: Duration) async {
        let failures = runner.withLock {
            $0.logReadFailures += 1
            $0.logReadError = reason
            return $0.logReadFailures
        }
        var delay = delayMin
        for _ in 1..<min(failures, 32) where delay < delayMax { delay *= 2 }
        delay = min(delay, delayMax)
        report(.logReadFailed(reason: reason, failures: failures, retryAfter: delay))
        try? await Task.sleep(for: delay)  // cancelled: the loop ends at its next check
    }

    private func logReadSucceeded() {
        let failures = runner.withLock { status -> Int in
            defer { status.logReadFailures = 0; status.logReadError = nil }
            return status.logReadFailures
        }
        if failures > 0 { report(.logReadRecovered(failures: failures)) }
    }

    /// One live batch: every projection's changes and checkpoint in one transaction. A
    /// projection that throws is marked failed and the batch redone without it.
    private func applyLive(_ page: DecodedEvents) throws(ReadModelError) {
        let records = page.records
        while true {
            let generations = try store.read { txn in
                try projections.map { try store.meta(of: $0.name, in: txn)?.activeGeneration ?? 0 }
            }
            var tables: [ReadModelTables] = []
            for (projection, generation) in zip(projections, generations) {
                tables.append(try store.tables(of: projection, generation: generation))
            }
            do throws(ReadModelError) {
                try store.write { txn in
                    for (index, projection) in projections.enumerated() {
                        guard var meta = try store.meta(of: projection.name, in: txn.reader) else { continue }
                        guard meta.activeGeneration == generations[index] else { throw ReadModelError.generationMoved(projection.name) }
                        // Failed: its checkpoint stays at the last good event until a rebuild.
                        guard meta.failure == nil else { continue }
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
                notifySwapped(name)
                continue
            } catch let .applyFailed(name, position, reason) {
                guard let index = projections.firstIndex(where: { $0.name == name }) else { throw .applyFailed(projection: name, position: position, reason: reason) }
                let failure = ProjectionFailure(position: position, reason: reason)
                if try markFailed(projections[index], failure, records, tables: tables[index], generation: generations[index]) {
                    report(.projectionFailed(name: name, position: position, reason: reason))
                }
                // Its cached values must go too: its queries now refuse to answer.
                notifySwapped(name)
                continue
            }
        }
        let observers = observers.withLock { $0 }
        if !observers.isEmpty {
            let events = records.indices.map { ProjectedEvent(page, at: $0) }
            for observer in observers { observer.committed(events) }
        }
        let live = try liveCheckpoint() ?? records.last?.position ?? projected.position
        projected.advance(to: max(projected.position, live))
    }

    /// Stores `failure` in `projection`'s metadata, after applying the batch's events before the
    /// failed one, so its checkpoint is the last event it applied. Returns false when there was
    /// nothing to record (another process swapped the copy, or marked it already).
    private func markFailed(
        _ projection: any Projection, _ failure: ProjectionFailure, _ records: [RecordedEvent], tables: ReadModelTables, generation: Int
    ) throws(ReadModelError) -> Bool {
        let before = records.filter { $0.position < failure.position }
        do throws(ReadModelError) {
            return try recordFailure(failure, of: projection, applying: before, tables: tables, generation: generation)
        } catch .applyFailed {
            // It threw before the event it threw at a moment ago: `apply` is not deterministic.
            // Record the failure where the copy stands rather than trust those events.
            return try recordFailure(failure, of: projection, applying: [], tables: tables, generation: generation)
        }
    }

    private func recordFailure(
        _ failure: ProjectionFailure, of projection: any Projection, applying records: [RecordedEvent], tables: ReadModelTables, generation: Int
    ) throws(ReadModelError) -> Bool {
        try store.write { txn in
            guard var meta = try store.meta(of: projection.name, in: txn.reader),
                  meta.activeGeneration == generation, meta.failure == nil else { return false }
            if meta.version == projection.version, let last = records.last, last.position > meta.checkpoint {
                try apply(projection, DecodedEvents(records, opening: personalData), after: meta.checkpoint, into: tables, txn)
                meta.checkpoint = last.position
            }
            meta.failure = failure
            try store.store(meta, of: projection.name, in: txn)
            return true
        }
    }

    /// Waits for an event at `position`.
    private nonisolated func waitForEvent(at position: UInt64) async -> Wake {
        var iterator = log.subscribe(from: position).makeAsyncIterator()
        do {
            return try await iterator.next() != nil ? .event : .ended
        } catch {
            return .failed("\(error)")
        }
    }
}
